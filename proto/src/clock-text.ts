/**
 * Prompt times travel as hh:mm:ss text (spec section 3) and are stored as whole seconds from the
 * start of the session. Hours may have more than two digits; minutes and seconds are 00 to 59.
 */
const CLOCK_TIME = /^(\d{1,4}):([0-5]\d):([0-5]\d)$/;

export const CLOCK_TIME_FORMAT_MESSAGE = 'must be a time as hh:mm:ss, with minutes and seconds from 00 to 59';

/** '01:02:03' -> 3723. Returns null for anything that is not hh:mm:ss, so callers say why. */
export const parseClockTime = (text: string): number | null => {
  const match = CLOCK_TIME.exec(text.trim());
  if (!match) return null;
  const [, hours, minutes, seconds] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
};

/** 3723 -> '01:02:03'. Fractions of a second are dropped; hours are at least two digits. */
export const formatClockTime = (totalSeconds: number): string => {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) {
    throw new RangeError(`formatClockTime needs a non-negative number of seconds, got ${totalSeconds}`);
  }
  const whole = Math.floor(totalSeconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
};
