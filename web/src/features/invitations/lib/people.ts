import type { ParticipantSource, SessionPerson } from '@uis/proto';
import { recordTimeParts } from '../../records/lib/record-format';

/** A time as the researcher's local 'YYYY-MM-DD hh:mm' (the records' spelling, without seconds). */
export function shortTime(iso: string): string {
  const parts = recordTimeParts(iso);
  return parts ? `${parts.date} ${parts.time.slice(0, 5)}` : iso;
}

/** The session's people, split as the editor lists them: not come yet, and come. */
export function groupPeople(people: readonly SessionPerson[]): {
  invited: SessionPerson[];
  joined: SessionPerson[];
} {
  return {
    invited: people.filter((person) => person.status === 'invited'),
    joined: people.filter((person) => person.status === 'joined'),
  };
}

/** 'Invited 2 times, last 2025-05-12 14:03', or that no mail went out yet. */
export function invitationsText({ invitations, invitedAt }: SessionPerson): string {
  if (invitations === 0 || !invitedAt) return 'No invitation sent yet';
  const times = invitations === 1 ? 'once' : `${invitations} times`;
  return `Invited ${times}, last ${shortTime(invitedAt)}`;
}

/**
 * A person's later joins that carried other panel ids than their first (which are the ones kept):
 * 'Joined again with other panel ids: PROLIFIC_PID=x (2025-05-12 14:03)'.
 */
export function conflictsText({ panelIdConflicts }: SessionPerson): string {
  const joins = panelIdConflicts.map(({ at, panelIds }) => {
    const ids = Object.entries(panelIds).map(([name, value]) => `${name}=${value}`);
    return `${ids.length > 0 ? ids.join(', ') : 'none'} (${shortTime(at)})`;
  });
  return `Joined again with other panel ids, not kept: ${joins.join('; ')}`;
}

/** How a person came to the session, in the editor's words. */
export const SOURCE_LABELS: Record<ParticipantSource, string> = {
  scope: 'Invited by e-mail',
  link: 'Join link',
};
