/** The timeline's scale: how long it is, where a time goes on it, its ticks and the click density. */

/**
 * The timeline's length in seconds: the video's duration when known, stretched to the latest event
 * (a record made past the end of a video replaced since) so every marker is on it; at least 1 s.
 */
export function timelineEnd(duration: number | null, latest: number): number {
  const known = duration !== null && Number.isFinite(duration) && duration > 0 ? duration : 0;
  return Math.max(known, Number.isFinite(latest) ? latest : 0, 1);
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Where `at` goes on a timeline `end` seconds long, as a percentage 0-100 of its width. */
export const percentAt = (at: number, end: number): number => clamp((at / end) * 100, 0, 100);

/** The time at `clientX` on a track spanning `left` to `left + width` (a pointer on the timeline). */
export function timeAtPoint(clientX: number, box: { left: number; width: number }, end: number): number {
  if (box.width <= 0) return 0;
  return clamp((clientX - box.left) / box.width, 0, 1) * end;
}

const TICK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** The smallest round step (seconds) that puts at most `maxTicks` ticks on `end` seconds. */
export function tickStep(end: number, maxTicks: number): number {
  const wanted = end / Math.max(1, maxTicks);
  return TICK_STEPS.find((step) => step >= wanted) ?? Math.ceil(wanted / 3600) * 3600;
}

/** The ticks of a timeline `end` seconds long: 0 and every step up to the end. */
export function ticks(end: number, maxTicks: number): number[] {
  const step = tickStep(end, maxTicks);
  const list: number[] = [];
  for (let at = 0; at <= end + 1e-9; at += step) list.push(at);
  return list;
}

/** How many of `times` fall in each of `bins` equal parts of 0 to `end` (the last part includes the end). */
export function histogram(times: Iterable<number>, end: number, bins: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  if (end <= 0 || bins <= 0) return counts;
  for (const at of times) {
    if (at < 0 || at > end) continue;
    const bin = Math.min(bins - 1, Math.floor((at / end) * bins));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return counts;
}
