const pad = (n: number) => String(n).padStart(2, '0');

const parse = (iso: string): Date | null => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
};

/** A message's time as the reader's local 'hh:mm'. */
export function chatTime(iso: string): string {
  const at = parse(iso);
  return at ? `${pad(at.getHours())}:${pad(at.getMinutes())}` : '';
}

/** The full local date and time, for the tooltip. */
export function chatTimeTitle(iso: string): string {
  const at = parse(iso);
  if (!at) return iso;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(
    at.getMinutes(),
  )}:${pad(at.getSeconds())}`;
}
