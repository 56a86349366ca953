import { Injectable } from '@nestjs/common';
import type { StudyExportRow, Withdrawal } from '@uis/proto';
import type { RecordAuthor } from '../author';
import { RecordsDb, type Queryable } from '../db/records-db';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/**
 * A row of withdrawals: a participant's withdrawal from a session, shaped as every record of it (the
 * author is the participant who withdrew, `createdAt` when). Indexes are in the migration.
 */
export interface WithdrawalRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  /** Their chat messages (reactions included) it deleted. */
  messages: number;
  /** Their clicks it deleted. */
  clicks: number;
  createdAt: Date;
}

/** The columns of withdrawals, as WithdrawalRow reads them. */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, messages, clicks, created_at AS "createdAt"`;

/** What the owner sees, and what the participant who withdrew is answered. */
export const toWithdrawal = (row: WithdrawalRow): Withdrawal => ({
  withdrawal_id: row.id,
  time: row.createdAt.toISOString(),
  userId: row.authorUserId,
  name: row.name,
  email: row.authorEmail,
  messages: row.messages,
  clicks: row.clicks,
});

/** A row of the study export's withdrawals.csv. */
export const toWithdrawalRow = (
  row: WithdrawalRow,
  people: ParticipantIds,
): StudyExportRow<'withdrawals'> => ({
  session_id: row.sessionId,
  withdrawal_id: row.id,
  participant_id: people.of(row.authorEmail),
  withdrawn_at: row.createdAt.toISOString(),
  messages_deleted: row.messages,
  clicks_deleted: row.clicks,
});

/** The withdrawals table: every statement on it and its row mappers. */
@Injectable()
export class WithdrawalsRepository extends SessionRecordTable<WithdrawalRow> {
  constructor(db: RecordsDb) {
    super(db, 'withdrawals', COLUMNS);
  }

  /** Holds off, until `tx` ends, any other withdrawal of this person from this session. */
  async lockPerson(tx: Queryable, sessionId: string, userId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `withdrawal:${sessionId}:${userId}`,
    ]);
  }

  /** The person's latest withdrawal from the session, if any. */
  async latestOf(tx: Queryable, sessionId: string, userId: string): Promise<WithdrawalRow | null> {
    const [row] = await tx.query<WithdrawalRow>(
      `SELECT ${COLUMNS} FROM withdrawals WHERE session_id = $1 AND author_user_id = $2 ORDER BY seq DESC LIMIT 1`,
      [sessionId, userId],
    );
    return row ?? null;
  }

  async insert(
    tx: Queryable,
    sessionId: string,
    author: RecordAuthor,
    counts: { messages: number; clicks: number },
  ): Promise<WithdrawalRow> {
    const [row] = await tx.query<WithdrawalRow>(
      `INSERT INTO withdrawals (session_id, author_user_id, author_email, name, messages, clicks)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [sessionId, author.userId, author.email, author.name, counts.messages, counts.clicks],
    );
    return row!;
  }
}
