import { Injectable } from '@nestjs/common';
import { RecordsDb } from '../db/records-db';

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

export interface ParticipantRow {
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

/**
 * participants.csv's reading of the records: the one statement over several tables (messages,
 * pixels, playback), so that Postgres aggregates a session of a million records and only one row per
 * person comes back.
 */
@Injectable()
export class ParticipantsRepository {
  constructor(private readonly db: RecordsDb) {}

  /** Everyone who wrote a record of the session, earliest writer first (PARTICIPANTS_SQL). */
  writersOf(sessionId: string): Promise<ParticipantRow[]> {
    return this.db.query<ParticipantRow>(PARTICIPANTS_SQL, [sessionId]);
  }
}
