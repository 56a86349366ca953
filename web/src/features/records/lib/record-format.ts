/** How the record panel writes times and positions. */

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as the viewer's local date 'YYYY-MM-DD' and time 'hh:mm:ss'. */
export function recordTimeParts(iso: string): { date: string; time: string } | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return {
    date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
    time: `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`,
  };
}

/** Spec section 9's helper: a 0-1 ratio as a rounded percentage (a click's x and y). */
export const ratioPercent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/**
 * Seconds into the video as 'm:ss.s' ('h:mm:ss.s' past an hour): tenths, since a click or a
 * message is placed on the video more finely than a second. null (nothing was playing) is '–'.
 */
export function videoTimeText(seconds: number | null): string {
  if (seconds === null) return '–';
  const tenths = Math.round(seconds * 10);
  const hours = Math.floor(tenths / 36_000);
  const minutes = Math.floor((tenths % 36_000) / 600);
  const secs = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${secs}` : `${minutes}:${secs}`;
}
