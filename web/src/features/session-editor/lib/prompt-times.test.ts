import { describe, expect, it } from 'vitest';
import { firstFreeSecond } from './prompt-times';

describe('firstFreeSecond', () => {
  it('is 0 without prompts and the first gap otherwise', () => {
    expect(firstFreeSecond([])).toBe(0);
    expect(firstFreeSecond([{ time: 0 }, { time: 1 }, { time: 5 }])).toBe(2);
    expect(firstFreeSecond([{ time: 3 }])).toBe(0);
  });
});
