import { describe, expect, it } from 'vitest';
import { driftLevel, driftText, durationText } from './monitor-format';

describe('the monitor’s formats', () => {
  it('writes durations in the largest units that matter', () => {
    expect(durationText(0)).toBe('0 s');
    expect(durationText(59_999)).toBe('59 s');
    expect(durationText(60_000)).toBe('1 min');
    expect(durationText(3_600_000)).toBe('1 h');
    expect(durationText(3_900_000)).toBe('1 h 5 min');
    expect(durationText(-5)).toBe('0 s');
  });

  it('writes drift signed, in ms under a second, and grades it', () => {
    expect(driftText(250)).toBe('+250 ms');
    expect(driftText(-40)).toBe('−40 ms');
    expect(driftText(0)).toBe('±0 ms');
    expect(driftText(-1234)).toBe('−1.2 s');
    expect([0, 149, -150, 999, 1000, -5000].map(driftLevel)).toEqual([
      'in-sync',
      'in-sync',
      'behind',
      'behind',
      'off',
      'off',
    ]);
  });
});
