import { describe, expect, it } from 'vitest';
import { ratioPercent, recordTimeParts } from './record-format';

describe('record formats', () => {
  it('writes a time in local time, zero-padded', () => {
    const local = new Date(2024, 0, 2, 3, 4, 5);
    expect(recordTimeParts(local.toISOString())).toEqual({ date: '2024-01-02', time: '03:04:05' });
    expect(recordTimeParts('not a time')).toBeNull();
  });

  it('writes a ratio as a rounded percentage', () => {
    expect(ratioPercent(0)).toBe('0%');
    expect(ratioPercent(0.5234)).toBe('52%');
    expect(ratioPercent(0.995)).toBe('100%');
    expect(ratioPercent(1)).toBe('100%');
  });
});
