import { describe, expect, it } from 'vitest';
import { histogram, percentAt, tickStep, ticks, timeAtPoint, timelineEnd } from './timeline-scale';

describe('timeline scale', () => {
  it("spans the video's duration, stretched to the latest event, at least a second", () => {
    expect(timelineEnd(40, 12)).toBe(40);
    expect(timelineEnd(40, 52)).toBe(52);
    expect(timelineEnd(null, 30)).toBe(30);
    expect(timelineEnd(Infinity, 30)).toBe(30);
    expect(timelineEnd(null, -Infinity)).toBe(1);
  });

  it('places a time as a percentage, clamped to the track', () => {
    expect(percentAt(10, 40)).toBe(25);
    expect(percentAt(-1, 40)).toBe(0);
    expect(percentAt(50, 40)).toBe(100);
  });

  it('reads the time under the pointer', () => {
    expect(timeAtPoint(150, { left: 100, width: 200 }, 40)).toBe(10);
    expect(timeAtPoint(50, { left: 100, width: 200 }, 40)).toBe(0);
    expect(timeAtPoint(400, { left: 100, width: 200 }, 40)).toBe(40);
    expect(timeAtPoint(150, { left: 100, width: 0 }, 40)).toBe(0);
  });

  it('picks a round tick step', () => {
    expect(tickStep(40, 8)).toBe(5);
    expect(tickStep(40, 10)).toBe(5);
    expect(tickStep(600, 6)).toBe(120);
    expect(tickStep(5, 10)).toBe(1);
    expect(tickStep(50_000, 5)).toBe(10_800);
    expect(ticks(40, 8)).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40]);
    expect(ticks(12, 3)).toEqual([0, 5, 10]);
  });

  it('counts times per bin, the end in the last one, outside ones left out', () => {
    expect(histogram([0, 1, 9.9, 10, 5, -1, 11], 10, 2)).toEqual([2, 3]);
    expect(histogram([1], 0, 3)).toEqual([0, 0, 0]);
  });
});
