import { describe, expect, it } from 'vitest';
import { ratioPercent, recordTimeParts, videoTimeText } from './record-format';

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

  it('writes a video time to the tenth, with hours only past an hour, and a dash for none', () => {
    expect(videoTimeText(0)).toBe('0:00.0');
    expect(videoTimeText(7.25)).toBe('0:07.3');
    expect(videoTimeText(59.96)).toBe('1:00.0');
    expect(videoTimeText(62.5)).toBe('1:02.5');
    expect(videoTimeText(3599.94)).toBe('59:59.9');
    expect(videoTimeText(3723.45)).toBe('1:02:03.5');
    expect(videoTimeText(null)).toBe('–');
  });
});
