import { SCOPE_MAX_EMAILS } from '@uis/proto/browser';

/** The cap field of a new join link: empty is no cap, else a whole number the server accepts. */
export function joinCapOf(text: string): { cap: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { cap: null };
  const cap = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || cap < 1 || cap > SCOPE_MAX_EMAILS)
    return { error: `Give a whole number from 1 to ${SCOPE_MAX_EMAILS}, or leave it empty for no cap.` };
  return { cap };
}

/** '3 joined of at most 50', or '3 joined, no cap'. */
export const joinedText = (joined: number, cap: number | null): string =>
  cap === null ? `${joined} joined, no cap` : `${joined} joined of at most ${cap}`;
