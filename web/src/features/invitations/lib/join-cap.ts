import { SCOPE_MAX_EMAILS } from '@uis/proto/browser';
import { joinCapErrorText } from '../../../i18n/en/participation';

/** The cap field of a new join link: empty is no cap, else a whole number the server accepts. */
export function joinCapOf(text: string): { cap: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { cap: null };
  const cap = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || cap < 1 || cap > SCOPE_MAX_EMAILS)
    return { error: joinCapErrorText(SCOPE_MAX_EMAILS) };
  return { cap };
}
