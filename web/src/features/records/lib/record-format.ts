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
