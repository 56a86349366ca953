/** How the record panel writes times and positions. */

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as the viewer's local 'YYYY-MM-DD hh:mm:ss'. */
export function formatRecordTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Spec section 9's helper: a 0-1 ratio as a rounded percentage (a click's x and y). */
export const ratioPercent = (ratio: number): string => `${Math.round(ratio * 100)}%`;
