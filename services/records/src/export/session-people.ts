import { Injectable } from '@nestjs/common';
import type { RosterEntry, StudyExportRow } from '@uis/proto';
import { isoInstant } from './export-cells';
import type { ParticipantIds } from './participant-ids';
import { ParticipantsRepository, type ParticipantRow } from './participants.repository';

/** One person of a session: what they wrote (none when on the roster only) and their roster entry. */
export interface SessionPerson {
  email: string;
  userId: string | null;
  writer: ParticipantRow | null;
  roster: RosterEntry | null;
}

/** A session's roster as studies gave it, or null when it could not be had (the export says so). */
export type Roster = readonly RosterEntry[] | null;

/**
 * Who took part in a session (participants.csv and identifiers.csv): read from the records themselves,
 * joined by e-mail with studies' roster (who was invited, who came by link, their panel ids): writers
 * first, in the order they first wrote, then the people on the roster who wrote nothing.
 */
@Injectable()
export class SessionPeople {
  constructor(private readonly writers: ParticipantsRepository) {}

  async of(sessionId: string, roster: Roster): Promise<SessionPerson[]> {
    const rows = await this.writers.writersOf(sessionId);
    const byEmail = new Map((roster ?? []).map((entry) => [entry.email.toLowerCase(), entry]));
    const writers = rows.map((row): SessionPerson => {
      const address = row.email.toLowerCase();
      const entry = byEmail.get(address) ?? null;
      byEmail.delete(address);
      return { email: row.email, userId: row.userId, writer: row, roster: entry };
    });
    const silent = [...byEmail.values()].map((entry): SessionPerson => ({
      email: entry.email,
      userId: entry.userId,
      writer: null,
      roster: entry,
    }));
    return [...writers, ...silent];
  }
}

/** A row of participants.csv; the researcher is the exporting owner (only owners export). */
export const toParticipantRow = (
  sessionId: string,
  person: SessionPerson,
  people: ParticipantIds,
  researcherEmail: string,
): StudyExportRow<'participants'> => ({
  session_id: sessionId,
  participant_id: people.of(person.email),
  role: person.email.toLowerCase() === researcherEmail.toLowerCase() ? 'researcher' : 'participant',
  source: person.roster?.source ?? null,
  invited_at: isoInstant(person.roster?.invitedAt ?? null),
  joined_at: isoInstant(person.roster?.joinedAt ?? null),
  messages: person.writer?.messages ?? 0,
  reactions: person.writer?.reactions ?? 0,
  clicks: person.writer?.clicks ?? 0,
  playback: person.writer?.playback ?? 0,
  first_record_at: person.writer?.firstTime.toISOString() ?? null,
  last_record_at: person.writer?.lastTime.toISOString() ?? null,
});

/** A row of identifiers.csv, with a panel_<NAME> cell per panel id the person's roster entry holds. */
export const toIdentifierRow = (
  sessionId: string,
  person: SessionPerson,
  people: ParticipantIds,
  panelColumn: (idName: string) => string,
): Record<string, string | null> => {
  const row: Record<string, string | null> = {
    session_id: sessionId,
    participant_id: people.of(person.email),
    user_id: person.userId,
    email: person.email,
    name: person.writer?.name ?? null,
    panel_id_conflicts:
      person.roster && person.roster.panelIdConflicts.length > 0
        ? JSON.stringify(person.roster.panelIdConflicts)
        : null,
  } satisfies StudyExportRow<'identifiers'>;
  for (const [idName, value] of Object.entries(person.roster?.panelIds ?? {}))
    row[panelColumn(idName)] = value;
  return row;
};
