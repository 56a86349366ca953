import { describe, expect, it } from 'vitest';
import {
  heatMax,
  heatPoints,
  heatRadius,
  inWindow,
  indexRange,
  lowerBound,
  windowAround,
} from './time-window';

const at = (...times: number[]) => times.map((time) => ({ at: time }));

describe('time window', () => {
  it('centres the window on the position, never before the start', () => {
    expect(windowAround(20, 10)).toEqual({ start: 15, end: 25 });
    expect(windowAround(2, 10)).toEqual({ start: 0, end: 7 });
    expect(windowAround(12, null)).toEqual({ start: 0, end: Infinity });
  });

  it('includes the start and excludes the end', () => {
    expect(inWindow(15, { start: 15, end: 25 })).toBe(true);
    expect(inWindow(25, { start: 15, end: 25 })).toBe(false);
  });

  it('bisects sorted times', () => {
    const sorted = at(1, 2, 2, 5, 9);
    expect(lowerBound(sorted, 0)).toBe(0);
    expect(lowerBound(sorted, 2)).toBe(1);
    expect(lowerBound(sorted, 3)).toBe(3);
    expect(lowerBound(sorted, 10)).toBe(5);
    expect(lowerBound([], 1)).toBe(0);
  });

  it('finds the slice of sorted clicks in a window', () => {
    const sorted = at(1, 2, 2, 5, 9);
    expect(indexRange(sorted, { start: 2, end: 5 })).toEqual({ from: 1, to: 3 });
    expect(indexRange(sorted, { start: 0, end: Infinity })).toEqual({ from: 0, to: 5 });
    expect(indexRange(sorted, { start: 6, end: 8 })).toEqual({ from: 4, to: 4 });
  });

  it('scales fractions of the video area to the canvas', () => {
    expect(heatPoints([{ x: 0.25, y: 0.5 }], 640, 360)).toEqual([[160, 180, 1]]);
  });

  it('takes more overlapping clicks for full strength as the window fills', () => {
    expect(heatMax(0)).toBe(2);
    expect(heatMax(1)).toBe(2);
    expect(heatMax(100)).toBe(10);
    expect(heatMax(1_000_000)).toBe(25);
  });

  it('sizes a spot in proportion to the picture, with a floor', () => {
    expect(heatRadius(640, 360)).toEqual({ radius: 22, blur: 18 });
    expect(heatRadius(100, 50).radius).toBe(8);
  });
});
