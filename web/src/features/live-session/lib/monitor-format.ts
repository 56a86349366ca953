import { TIME_UNITS as U } from '../../../i18n/en/common';

/** How the researcher's monitor writes durations and drift. */

/** A duration as '12 s', '3 min', '1 h 5 min' (the monitor's "connected for"). */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} ${U.s}`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${U.min}`;
  const rest = minutes % 60;
  const hours = Math.floor(minutes / 60);
  return rest === 0 ? `${hours} ${U.h}` : `${hours} ${U.h} ${rest} ${U.min}`;
}

export type DriftLevel = 'in-sync' | 'behind' | 'off';

/**
 * How far a participant's player is from the researcher's: in sync under 150 ms (the follower
 * nudges its rate below a second and seeks past it), drifting under a second, off beyond.
 */
export function driftLevel(driftMs: number): DriftLevel {
  const size = Math.abs(driftMs);
  return size < 150 ? 'in-sync' : size < 1000 ? 'behind' : 'off';
}

/** '+250 ms' ahead, '−1.2 s' behind: signed, in ms under a second. */
export function driftText(driftMs: number): string {
  const sign = driftMs > 0 ? '+' : driftMs < 0 ? '−' : '±';
  const size = Math.abs(driftMs);
  return size < 1000 ? `${sign}${size} ${U.ms}` : `${sign}${(size / 1000).toFixed(1)} ${U.s}`;
}
