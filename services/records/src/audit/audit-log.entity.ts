import type { AuditKind } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/**
 * An entry of the audit log: a researcher's edit or deletion of a recorded message or click, written
 * in the transaction that made it. Shaped as every record of a session (its order key, its session,
 * and as author the researcher who made the change, with their e-mail and name), so it pages and
 * exports as the records do. Indexes and checks are in the migration.
 */
@Entity({ name: 'audit_log' })
export class AuditLogEntity extends SessionRecordEntity {
  @Column({ type: 'text' })
  kind!: AuditKind;

  /** The message or click changed (gone after a deletion). */
  @Column({ name: 'record_id', type: 'uuid' })
  recordId!: string;

  /** Who wrote the changed record: their account's erasure removes the entries about it too. */
  @Column({ name: 'record_author_user_id', type: 'uuid' })
  recordAuthorUserId!: string;

  /** The record before the change, as its export row. */
  @Column({ type: 'jsonb' })
  before!: Record<string, unknown>;

  /** The record after an edit, as its export row; null for a deletion. */
  @Column({ type: 'jsonb', nullable: true })
  after!: Record<string, unknown> | null;
}
