import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@uis/kit';
import type { AuditKind, StudyExportRow } from '@uis/proto';
import { RecordsDb, type Queryable } from '../db/records-db';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/**
 * A row of audit_log: a researcher's edit or deletion of a recorded message or click, shaped as every
 * record of a session (its order key, its session, and as author the researcher who made the change,
 * with their e-mail and name), so it pages and exports as the records do. Indexes and checks are in
 * the migration.
 */
export interface AuditLogRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  kind: AuditKind;
  /** The message or click changed (gone after a deletion). */
  recordId: string;
  /** Who wrote the changed record: their account's erasure removes the entries about it too. */
  recordAuthorUserId: string;
  /** The record before the change, as its export row. */
  before: Record<string, unknown>;
  /** The record after an edit, as its export row; null for a deletion. */
  after: Record<string, unknown> | null;
  createdAt: Date;
}

/** A change to log: which record of which session, whose it was, and the record before and after. */
export interface AuditedChange {
  kind: AuditKind;
  sessionId: string;
  recordId: string;
  recordAuthorUserId: string;
  before: object;
  /** null for a deletion. */
  after: object | null;
}

/** The columns of audit_log, as AuditLogRow reads them. */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, kind, record_id AS "recordId", record_author_user_id AS "recordAuthorUserId", before, after,
  created_at AS "createdAt"`;

/** A text field of a logged record (its export row as it was), or null. */
const textOf = (record: Record<string, unknown> | null, field: string): string | null => {
  const value = record?.[field];
  return typeof value === 'string' ? value : null;
};

/**
 * A row of the study export's audit.csv: who changed what, and a message's text before and after;
 * the logged records' e-mails and names stay out (identifiers.csv says who a participant_id is).
 */
export const toAuditExportRow = (row: AuditLogRow, people: ParticipantIds): StudyExportRow<'audit'> => {
  const recordAuthor = textOf(row.before, 'email');
  return {
    session_id: row.sessionId,
    audit_id: row.id,
    changed_at: row.createdAt.toISOString(),
    kind: row.kind,
    record_id: row.recordId,
    participant_id: people.of(row.authorEmail),
    record_participant_id: recordAuthor === null ? null : people.of(recordAuthor),
    message_before: textOf(row.before, 'message'),
    message_after: textOf(row.after, 'message'),
  };
};

/** The audit_log table: every statement on it and its row mapper. */
@Injectable()
export class AuditLogRepository extends SessionRecordTable<AuditLogRow> {
  constructor(db: RecordsDb) {
    super(db, 'audit_log', COLUMNS);
  }

  /**
   * Logs `by`'s change in `tx`, the transaction making it: the change and its entry commit together
   * or not at all.
   */
  async insert(tx: Queryable, by: AuthUser, change: AuditedChange): Promise<void> {
    await tx.query(
      `INSERT INTO audit_log
         (session_id, author_user_id, author_email, name, kind, record_id, record_author_user_id, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        change.sessionId,
        by.id,
        by.email,
        by.name,
        change.kind,
        change.recordId,
        change.recordAuthorUserId,
        JSON.stringify(change.before),
        change.after === null ? null : JSON.stringify(change.after),
      ],
    );
  }

  /** The entries of the changes `userId` made and of those about records they wrote, in any session. */
  deleteAbout(tx: Queryable, userId: string): Promise<number> {
    return this.countDeleted(tx, `author_user_id = $1 OR record_author_user_id = $1`, [userId]);
  }

  /** The entries about records `userId` wrote in one session (their `before` holds the record's text). */
  deleteAboutAuthorInSession(tx: Queryable, sessionId: string, userId: string): Promise<number> {
    return this.countDeleted(tx, `session_id = $1 AND record_author_user_id = $2`, [sessionId, userId]);
  }
}
