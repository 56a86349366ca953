import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuditSnapshot, ExportTableRow, MessageRecord } from '@uis/proto';
import type { RecordAuthor } from '../author';
import { RecordsDb, type Queryable } from '../db/records-db';
import { secondsToMs } from '../export/export-cells';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/** A row of messages as the repository reads it. */
export interface MessageRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  message: string;
  /** The session's video time when it was stored (seconds); null before anything was played. */
  videoTime: number | null;
  /** A reaction's action id; null for a typed message. */
  actionId: string | null;
  /** The text as written, kept by the first edit; null while never edited. */
  originalText: string | null;
  createdAt: Date;
}

/** A message as it is recorded, whoever reports it: its video time and action id when it has them. */
export type NewMessage = RecordAuthor & {
  sessionId: string;
  message: string;
  videoTime?: number | null;
  actionId?: string | null;
};

/** The columns of messages, as MessageRow reads them (`m.` when `prefix` is 'm.'). */
const columns = (prefix = '') =>
  `${prefix}id, ${prefix}seq, ${prefix}session_id AS "sessionId", ${prefix}author_user_id AS "authorUserId",
    ${prefix}author_email AS "authorEmail", ${prefix}name, ${prefix}message, ${prefix}video_time AS "videoTime",
    ${prefix}action_id AS "actionId", ${prefix}original_text AS "originalText", ${prefix}created_at AS "createdAt"`;

/** What participants and the owner see of a message: no author e-mail or id. */
export const toMessageRecord = (
  row: Pick<MessageRow, 'id' | 'seq' | 'message' | 'createdAt' | 'name' | 'videoTime' | 'actionId'>,
): MessageRecord => ({
  message_id: row.id,
  seq: row.seq,
  message: row.message,
  time: row.createdAt.toISOString(),
  name: row.name,
  videoTime: row.videoTime,
  actionId: row.actionId,
});

/** What the audit log keeps of a message before and after a change (author e-mail included). */
export const messageSnapshot = (row: MessageRow): AuditSnapshot<'messages'> => ({
  message_id: row.id,
  time: row.createdAt.toISOString(),
  videoTime: row.videoTime,
  name: row.name,
  email: row.authorEmail,
  message: row.message,
  actionId: row.actionId,
});

/** A row of messages.csv (EXPORT_TABLES.messages). */
export const toMessageExportRow = (row: MessageRow, people: ParticipantIds): ExportTableRow<'messages'> => ({
  session_id: row.sessionId,
  message_id: row.id,
  seq: Number(row.seq),
  participant_id: people.of(row.authorEmail),
  sent_at: row.createdAt.toISOString(),
  video_time_ms: secondsToMs(row.videoTime),
  message: row.message,
  action_id: row.actionId,
  edited: row.originalText !== null,
  original_text: row.originalText,
});

/**
 * The append, one statement for every session of a group commit. `seq` is counted per session
 * (record_sequences), so it tells a participant nothing of other sessions: each session's counter
 * is moved on once by its number of items (locked, in session order so that two appends cannot
 * deadlock, until the commit: a session's appends are stored one after the other, and a reader
 * never sees a later seq before an earlier one), and the items take its values in the order of the
 * arrays (`ord`). `created_at` is the column's default (the transaction's time, so one time for every
 * message of a call, as for the rows of any one INSERT).
 */
const APPEND_SQL = `
  WITH item AS (
    SELECT * FROM unnest(
        $1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[],
        $7::double precision[], $8::uuid[]
      ) WITH ORDINALITY
      AS item (id, session_id, author_user_id, author_email, name, message, video_time, action_id, ord)
  ), counter AS (
    INSERT INTO record_sequences AS s (session_id, kind, last)
    SELECT session_id, 'messages', count(*) FROM item GROUP BY session_id ORDER BY session_id
    ON CONFLICT (session_id, kind) DO UPDATE SET last = s.last + excluded.last
    RETURNING session_id, last
  )
  INSERT INTO messages (id, seq, session_id, author_user_id, author_email, name, message, video_time, action_id)
  SELECT item.id, counter.last - count(*) OVER per_session + row_number() OVER (per_session ORDER BY item.ord),
    item.session_id, author_user_id, author_email, name, message, video_time, action_id
  FROM item JOIN counter USING (session_id)
  WINDOW per_session AS (PARTITION BY item.session_id)
  ORDER BY item.ord
  RETURNING id, seq, created_at`;

/**
 * The newest `$2` rows of each session of `$1` (one more than a page, for `hasMore`), newest first
 * within a session, the sessions in the order (`ord`) of the array, a repeated id read again. Each
 * lateral read is a backward scan of messages_session_seq_idx (session_id, seq), as latest() is. An
 * unknown session has no rows.
 */
const LATEST_SQL = `
  SELECT s.ord, ${columns('m.')}
  FROM unnest($1::uuid[]) WITH ORDINALITY AS s (session_id, ord)
  CROSS JOIN LATERAL (
    SELECT * FROM messages
    WHERE session_id = s.session_id
    ORDER BY seq DESC
    LIMIT $2
  ) m
  ORDER BY s.ord, m.seq DESC`;

/** The messages table: every statement on it and its row mappers. Hand-written SQL (the live chat's hot path). */
@Injectable()
export class MessagesRepository extends SessionRecordTable<MessageRow> {
  constructor(db: RecordsDb) {
    super(db, 'messages', columns());
  }

  /** The newest `limit` messages of a session stored before the order key `beforeSeq` (all when undefined), newest first. */
  latest(sessionId: string, beforeSeq: string | undefined, limit: number): Promise<MessageRow[]> {
    return beforeSeq === undefined
      ? this.db.query<MessageRow>(
          `SELECT ${this.columns} FROM messages WHERE session_id = $1 ORDER BY seq DESC LIMIT $2`,
          [sessionId, limit],
        )
      : this.db.query<MessageRow>(
          `SELECT ${this.columns} FROM messages WHERE session_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
          [sessionId, beforeSeq, limit],
        );
  }

  /** latest(sessionId, undefined, limit) of each session, in the order of `sessionIds`, by one statement. */
  async latestOfEach(sessionIds: readonly string[], limit: number): Promise<MessageRow[][]> {
    const rows = await this.db.query<MessageRow & { ord: string }>(LATEST_SQL, [sessionIds, limit]);
    const rowsOf = sessionIds.map((): MessageRow[] => []);
    // ord counts from 1 (a bigint, so text); the rows come newest first within each.
    for (const row of rows) rowsOf[Number(row.ord) - 1]!.push(row);
    return rowsOf;
  }

  /**
   * Stores `messages` by one statement (APPEND_SQL), so in one commit; their records in the order
   * of `messages`, which is also their order in each session.
   */
  async append(messages: readonly NewMessage[]): Promise<MessageRecord[]> {
    // The ids are made here (random v4, as gen_random_uuid() makes them), so each returned row is
    // matched to its input by id, not by trusting the order RETURNING happens to use.
    const ids = messages.map(() => randomUUID());
    const rows = await this.db.query<{ id: string; seq: string; created_at: Date }>(APPEND_SQL, [
      ids,
      messages.map((m) => m.sessionId),
      messages.map((m) => m.userId),
      messages.map((m) => m.email),
      messages.map((m) => m.name),
      messages.map((m) => m.message),
      messages.map((m) => m.videoTime ?? null),
      messages.map((m) => m.actionId ?? null),
    ]);
    const stored = new Map(rows.map((row) => [row.id, row]));
    return messages.map((m, i) => {
      const row = stored.get(ids[i]!);
      if (!row) throw new Error('INSERT ... RETURNING left out a message it stored');
      return toMessageRecord({
        id: row.id,
        seq: row.seq,
        message: m.message,
        name: m.name,
        createdAt: row.created_at,
        videoTime: m.videoTime ?? null,
        actionId: m.actionId ?? null,
      });
    });
  }

  /** A researcher's edit: the first one keeps the text as written in original_text. */
  async updateText(tx: Queryable, id: string, message: string): Promise<void> {
    await tx.query(
      `UPDATE messages SET original_text = COALESCE(original_text, message), message = $2 WHERE id = $1`,
      [id, message],
    );
  }

  async delete(tx: Queryable, id: string): Promise<void> {
    await this.countDeleted(tx, `id = $1`, [id]);
  }
}
