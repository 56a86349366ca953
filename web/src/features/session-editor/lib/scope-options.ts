import { EVERYONE } from '@uis/proto/browser';
import type { Participant, Scope } from '@uis/proto';

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
