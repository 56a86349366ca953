import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AuthUser } from '@uis/kit';
import type { AuditKind, ExportRow, StudyExportRow } from '@uis/proto';
import type { EntityManager, Repository } from 'typeorm';
import type { MessageEntity } from '../messages/message.entity';
import type { PixelEntity } from '../pixels/pixel.entity';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { recordsInOrder } from '../session-record';
import { AuditLogEntity } from './audit-log.entity';

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

const INSERT_SQL = `
  INSERT INTO audit_log
    (session_id, author_user_id, author_email, name, kind, record_id, record_author_user_id, before, after)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/**
 * Logs a researcher's change in `tx`, the transaction making it: the change and its entry commit
 * together or not at all. A plain function of the transaction, so the services that change records
 * need nothing injected for it.
 */
export async function writeAudit(tx: EntityManager, by: AuthUser, change: AuditedChange): Promise<void> {
  await tx.query(INSERT_SQL, [
    change.sessionId,
    by.id,
    by.email,
    by.name,
    change.kind,
    change.recordId,
    change.recordAuthorUserId,
    JSON.stringify(change.before),
    change.after === null ? null : JSON.stringify(change.after),
  ]);
}

/**
 * A message's export row (File.csv's columns, author e-mail included): what the exports write, and
 * what the audit log keeps of it before and after a change.
 */
export const messageSnapshot = (row: MessageEntity): ExportRow<'messages'> => ({
  message_id: row.id,
  time: row.createdAt.toISOString(),
  videoTime: row.videoTime,
  name: row.name,
  email: row.authorEmail,
  message: row.message,
  actionId: row.actionId,
});

/** A click's export row: what the exports write, and what the audit log keeps of it. */
export const pixelSnapshot = (row: PixelEntity): ExportRow<'pixels'> => ({
  pixel_id: row.id,
  time: row.createdAt.toISOString(),
  name: row.name,
  email: row.authorEmail,
  color: row.color,
  x: row.x,
  y: row.y,
  videoTime: row.videoTime,
  sessionId: row.sessionId,
});

/** The audit log as the study export reads it (writes go through writeAudit). */
@Injectable()
export class AuditLogService {
  constructor(
    @InjectRepository(AuditLogEntity) private readonly entries: Repository<AuditLogEntity>,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** A session's entries in the order made, a page at a time; before and after as JSON text. */
  async *exportRows(sessionId: string): AsyncGenerator<StudyExportRow<'audit'>> {
    for await (const row of recordsInOrder(this.entries, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield {
        audit_id: row.id,
        time: row.createdAt.toISOString(),
        sessionId: row.sessionId,
        kind: row.kind,
        recordId: row.recordId,
        userId: row.authorUserId,
        email: row.authorEmail,
        name: row.name,
        before: JSON.stringify(row.before),
        after: row.after === null ? null : JSON.stringify(row.after),
      };
    }
  }
}
