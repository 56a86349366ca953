import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InternalClient } from '@uis/kit';
import { internalRoutes, type RosterEntry, type StudyExportRow } from '@uis/proto';
import type { DataSource } from 'typeorm';

/**
 * Everyone who wrote a record of session `$1` (a message, a reaction, a click, a playback entry),
 * with the name and e-mail of their latest record, their counts by kind (a message with an action
 * id is a reaction) and the times of their first and last record; the earliest writer first. One
 * statement over the three tables: a session of a million records is aggregated by Postgres, and
 * only one row per person comes back.
 */
const PARTICIPANTS_SQL = `
  WITH written AS (
    SELECT author_user_id, author_email, name, created_at,
      CASE WHEN action_id IS NULL THEN 'message' ELSE 'reaction' END AS kind
    FROM messages WHERE session_id = $1
    UNION ALL
    SELECT author_user_id, author_email, name, created_at, 'click' FROM pixels WHERE session_id = $1
    UNION ALL
    SELECT author_user_id, author_email, name, created_at, 'playback' FROM playback WHERE session_id = $1
  ),
  counted AS (
    SELECT author_user_id,
      count(*) FILTER (WHERE kind = 'message') AS messages,
      count(*) FILTER (WHERE kind = 'reaction') AS reactions,
      count(*) FILTER (WHERE kind = 'click') AS clicks,
      count(*) FILTER (WHERE kind = 'playback') AS playback,
      min(created_at) AS first_time,
      max(created_at) AS last_time
    FROM written GROUP BY author_user_id
  ),
  latest AS (
    SELECT DISTINCT ON (author_user_id) author_user_id, author_email, name
    FROM written ORDER BY author_user_id, created_at DESC
  )
  SELECT c.author_user_id AS "userId", l.name, l.author_email AS email,
    c.messages::int AS messages, c.reactions::int AS reactions, c.clicks::int AS clicks,
    c.playback::int AS playback, c.first_time AS "firstTime", c.last_time AS "lastTime"
  FROM counted c JOIN latest l USING (author_user_id)
  ORDER BY c.first_time, c.author_user_id`;

interface ParticipantRow {
  userId: string;
  name: string;
  email: string;
  messages: number;
  reactions: number;
  clicks: number;
  playback: number;
  firstTime: Date;
  lastTime: Date;
}

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly internal: InternalClient,
  ) {}

  /**
   * A roster that cannot be had (studies down, an entry past its contract) leaves the roster's
   * columns empty and is told to `rosterFailed`: the records' writers are exported all the same.
   */
  async rowsOf(sessionId: string, rosterFailed: (err: unknown) => void): Promise<ExportedParticipant[]> {
    const [rows, people] = await Promise.all([
      this.db.query<ParticipantRow[]>(PARTICIPANTS_SQL, [sessionId]),
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
