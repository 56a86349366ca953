import { EVERYONE } from '@uis/proto/browser';
import type { Participant, Scope } from '@uis/proto';
import { notAddedListText } from '../../../i18n/en/editor';

/** One choice of the scope picker: 'Everyone' or a participant by e-mail. */
export interface ScopeOption {
  value: string;
  label: string;
}

export const EVERYONE_OPTION: ScopeOption = { value: EVERYONE, label: EVERYONE };

const participantLabel = (participant: Participant): string =>
  participant.name ? `${participant.name} (${participant.email})` : participant.email;

/** Everyone first, then the participants directory. */
export function scopeChoices(participants: readonly Participant[]): ScopeOption[] {
  return [
    EVERYONE_OPTION,
    ...participants.map((participant) => ({
      value: participant.email,
      label: participantLabel(participant),
    })),
  ];
}

/** What the picker shows for a stored scope; e-mails no longer in the directory still show. */
export function scopeSelection(scope: Scope, participants: readonly Participant[]): ScopeOption[] {
  if (scope === EVERYONE) return [EVERYONE_OPTION];
  const byEmail = new Map(participants.map((participant) => [participant.email, participant]));
  return scope.map((email) => {
    const participant = byEmail.get(email);
    return { value: email, label: participant ? participantLabel(participant) : email };
  });
}

/**
 * The scope a new selection means. Everyone and named participants exclude each other: picking
 * Everyone replaces the names, picking a name while Everyone is selected replaces Everyone. An empty
 * selection is an empty list (nobody), as the server stores it.
 */
export function scopeOfSelection(selection: readonly ScopeOption[], previous: Scope): Scope {
  const everyone = selection.some((option) => option.value === EVERYONE);
  const emails = selection.filter((option) => option.value !== EVERYONE).map((option) => option.value);
  if (everyone && (previous !== EVERYONE || emails.length === 0)) return EVERYONE;
  return emails;
}

// ---- Any e-mail (addresses without an account are invited when the session is saved) ----

/** proto's email() (zod's pattern, at most 254 characters): the server refuses what this refuses. */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const EMAIL_MAX_CHARS = 254;

/** The address as the server stores it (trimmed, lower case), or null when it is not one. */
export function normalEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= EMAIL_MAX_CHARS && EMAIL_PATTERN.test(email) ? email : null;
}

/** What separates the addresses of a pasted list: commas, semicolons, spaces and line breaks. */
const LIST_SEPARATORS = /[\s,;]+/;

/** A paste that holds more than one entry (a list from a spreadsheet or a mail's To line). */
export const isEmailList = (text: string): boolean => LIST_SEPARATORS.test(text.trim());

/**
 * The addresses of a pasted list, each once, in order, and the entries that are not addresses.
 * Mail clients' spellings are read too: `<ann@uni.edu>` and `mailto:ann@uni.edu`.
 */
export function parseEmailList(text: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(LIST_SEPARATORS)) {
    const bare = entry.replace(/^["'<(]+|[>)"']+$/g, '').replace(/^mailto:/i, '');
    if (!bare) continue;
    const email = normalEmail(bare);
    if (!email) invalid.push(entry);
    else if (!emails.includes(email)) emails.push(email);
  }
  return { emails, invalid };
}

/** The scope with these addresses added (after those it names; Everyone gives way to them). */
export function withEmails(scope: Scope, emails: readonly string[]): Scope {
  if (emails.length === 0) return scope;
  const named = scope === EVERYONE ? [] : scope;
  return [...named, ...emails.filter((email) => !named.includes(email))];
}

/** The inline message for entries that were not added; a long list names the first few. */
export function notAddedText(invalid: readonly string[]): string {
  const SHOWN = 5;
  const names = invalid.slice(0, SHOWN).map((entry) => `“${entry}”`);
  return notAddedListText(names, Math.max(0, invalid.length - SHOWN), invalid.length);
}
