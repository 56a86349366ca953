/**
 * The heatmap's time window: the clicks made around the video's current position, found by
 * bisection in clicks kept in video order (a long session records thousands), and where they go on
 * a canvas of a given size.
 */

/** Seconds from `start` (included) to `end` (excluded). */
export interface TimeWindow {
  start: number;
  end: number;
}

/** The window sizes offered (seconds); null is the whole video. */
export const WINDOW_SIZES = [2, 5, 10, 30, 60, null] as const;
export type WindowSize = (typeof WINDOW_SIZES)[number];
export const DEFAULT_WINDOW_SIZE: WindowSize = 10;

/** The `size` seconds centred on `center`, not before the start; the whole video for null. */
export function windowAround(center: number, size: WindowSize): TimeWindow {
  if (size === null) return { start: 0, end: Infinity };
  return { start: Math.max(0, center - size / 2), end: Math.max(0, center + size / 2) };
}

/** The first index in `sorted` (by `at`) whose `at` is not below `time`. */
export function lowerBound(sorted: readonly { at: number }[], time: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle]?.at ?? Infinity) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The slice [from, to) of `sorted` (by `at`) that falls in `window`. */
export function indexRange(
  sorted: readonly { at: number }[],
  window: TimeWindow,
): { from: number; to: number } {
  const from = lowerBound(sorted, window.start);
  return { from, to: Math.max(from, lowerBound(sorted, window.end)) };
}

export const inWindow = (at: number, window: TimeWindow): boolean => at >= window.start && at < window.end;

/** Points for simpleheat: fractions of the video area scaled to the canvas, each of weight 1. */
export function heatPoints(
  clicks: readonly { x: number; y: number }[],
  width: number,
  height: number,
): [number, number, number][] {
  return clicks.map(({ x, y }) => [x * width, y * height, 1]);
}

/**
 * The weight that draws at full strength. One click alone shows faint (blue), where several overlap
 * it turns red; with many clicks in the window it takes more of them, so a crowd is not all red.
 */
export const heatMax = (count: number): number => Math.min(25, Math.max(2, Math.round(Math.sqrt(count))));

/** A click's spot radius and blur in canvas pixels, in proportion to the picture (a finger's width). */
export function heatRadius(width: number, height: number): { radius: number; blur: number } {
  const radius = Math.max(8, Math.round(Math.min(width, height) * 0.06));
  return { radius, blur: Math.round(radius * 0.8) };
}

/**
 * The radius of the dot drawn on each click, over its heat: a lone click's spot is faint and soft
 * (one click of many), its dot plain to see. Small beside the spot, so a crowd still reads as heat.
 */
export const dotRadius = (spotRadius: number): number => Math.max(3, Math.round(spotRadius * 0.2));
