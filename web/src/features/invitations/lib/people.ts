import type { SessionPerson } from '@uis/proto';
import { recordTimeParts } from '../../records/lib/record-format';
import { conflictsListText, invitedTimesText, PARTICIPATION_TEXTS } from '../../../i18n/en/participation';

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
  if (invitations === 0 || !invitedAt) return PARTICIPATION_TEXTS.noInvitationYet;
  return invitedTimesText(invitations, shortTime(invitedAt));
}

/**
 * A person's later joins that carried other panel ids than their first (which are the ones kept):
 * 'Joined again with other panel ids: PROLIFIC_PID=x (2025-05-12 14:03)'.
 */
export function conflictsText({ panelIdConflicts }: SessionPerson): string {
  const joins = panelIdConflicts.map(({ at, panelIds }) => {
    const ids = Object.entries(panelIds).map(([name, value]) => `${name}=${value}`);
    return `${ids.length > 0 ? ids.join(', ') : PARTICIPATION_TEXTS.noPanelIds} (${shortTime(at)})`;
  });
  return conflictsListText(joins);
}
