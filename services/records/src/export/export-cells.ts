/** The exports' cell conventions (export-codebook.ts): positions and durations as whole milliseconds. */

/** Seconds (the records' and content's unit) as whole milliseconds; null stays null. */
export function secondsToMs(seconds: number | null): number | null {
  return seconds === null ? null : Math.round(seconds * 1000);
}

/** An instant as the exports write it (ISO 8601, UTC, milliseconds), whatever ISO form another service sent. */
export function isoInstant(text: string | null): string | null {
  return text === null ? null : new Date(text).toISOString();
}
