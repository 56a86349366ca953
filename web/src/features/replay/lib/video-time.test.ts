import { describe, expect, it } from 'vitest';
import { formatSpan, formatVideoTime, isVideoTime } from './video-time';

describe('video time', () => {
  it('writes positions as m:ss, and h:mm:ss from an hour on', () => {
    expect(formatVideoTime(0)).toBe('0:00');
    expect(formatVideoTime(7.9)).toBe('0:07');
    expect(formatVideoTime(65)).toBe('1:05');
    expect(formatVideoTime(3600 + 62)).toBe('1:01:02');
  });

  it('reads anything that is not a position as 0:00', () => {
    expect(formatVideoTime(-3)).toBe('0:00');
    expect(formatVideoTime(Number.NaN)).toBe('0:00');
    expect(formatVideoTime(Infinity)).toBe('0:00');
  });

  it('writes spans in seconds, then minutes', () => {
    expect(formatSpan(10)).toBe('10 s');
    expect(formatSpan(1.25)).toBe('1.3 s');
    expect(formatSpan(120)).toBe('2 min');
    expect(formatSpan(90)).toBe('1 min 30 s');
  });

  it('accepts finite non-negative video times only', () => {
    expect(isVideoTime(0)).toBe(true);
    expect(isVideoTime(12.5)).toBe(true);
    expect(isVideoTime(null)).toBe(false);
    expect(isVideoTime(-1)).toBe(false);
    expect(isVideoTime(Number.NaN)).toBe(false);
  });
});
