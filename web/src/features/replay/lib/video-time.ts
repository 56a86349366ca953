import { TIME_UNITS as U } from '../../../i18n/en/common';

/** How the replay writes positions in the video. */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Seconds into the video as the players write them: 'm:ss', or 'h:mm:ss' from an hour on.
 * Fractions are dropped; anything not a finite non-negative number reads as 0:00.
 */
export function formatVideoTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`;
}

/** A length of time in words: '10 s', '1.5 s', '2 min', '1 min 30 s'. */
export function formatSpan(seconds: number): string {
  if (seconds < 60) return `${Number(seconds.toFixed(1))} ${U.s}`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest ? `${minutes} ${U.min} ${rest} ${U.s}` : `${minutes} ${U.min}`;
}

/** A recorded video time: a finite number of seconds, not before the start. */
export const isVideoTime = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;
