import { Injectable } from '@nestjs/common';
import { InternalClient } from '@uis/kit';
import { internalRoutes, type RosterEntry, type StudyExportRow } from '@uis/proto';
import { ParticipantsRepository } from './participants.repository';

type ExportedParticipant = StudyExportRow<'participants'>;

const noRecords = { messages: 0, reactions: 0, clicks: 0, playback: 0, firstTime: null, lastTime: null };
const notOnRoster = { source: null, invitedAt: null, joinedAt: null, panelIds: null, panelIdConflicts: null };
const rosterColumns = (entry: RosterEntry) => ({
  source: entry.source,
  invitedAt: entry.invitedAt,
  joinedAt: entry.joinedAt,
  panelIds: Object.keys(entry.panelIds).length > 0 ? JSON.stringify(entry.panelIds) : null,
  panelIdConflicts: entry.panelIdConflicts.length > 0 ? JSON.stringify(entry.panelIdConflicts) : null,
});

/**
 * participants.csv: who took part in a session, read from the records themselves, joined by e-mail
 * with studies' roster (who was invited, who came by link, their panel ids): writers first, in the
 * order they first wrote, then the people on the roster who wrote nothing.
 */
@Injectable()
export class StudyParticipantsService {
  constructor(
    private readonly writers: ParticipantsRepository,
    private readonly internal: InternalClient,
  ) {}

  /**
   * A roster that cannot be had (studies down, an entry past its contract) leaves the roster's
   * columns empty and is told to `rosterFailed`: the records' writers are exported all the same.
   */
  async rowsOf(sessionId: string, rosterFailed: (err: unknown) => void): Promise<ExportedParticipant[]> {
    const [rows, people] = await Promise.all([
      this.writers.writersOf(sessionId),
      this.internal.call(internalRoutes.studiesSessionRoster, { sessionId }).then(
        (answer) => answer.people,
        (err: unknown) => {
          rosterFailed(err);
          return [];
        },
      ),
    ]);
    const roster = new Map(people.map((entry) => [entry.email, entry]));
    const writers = rows.map((row): ExportedParticipant => {
      const entry = roster.get(row.email.toLowerCase());
      roster.delete(row.email.toLowerCase());
      return {
        sessionId,
        userId: row.userId,
        name: row.name,
        email: row.email,
        messages: row.messages,
        reactions: row.reactions,
        clicks: row.clicks,
        playback: row.playback,
        firstTime: row.firstTime.toISOString(),
        lastTime: row.lastTime.toISOString(),
        ...(entry ? rosterColumns(entry) : notOnRoster),
      };
    });
    const silent = [...roster.values()].map((entry): ExportedParticipant => ({
      sessionId,
      userId: entry.userId,
      name: null,
      email: entry.email,
      ...noRecords,
      ...rosterColumns(entry),
    }));
    return [...writers, ...silent];
  }
}
