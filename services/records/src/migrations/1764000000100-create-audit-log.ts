import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: researchers' edits and deletions of recorded messages and clicks, shaped as the
 * records (the `seq` order key, (session_id, seq) for the export's keyset paging). author_user_id is
 * the researcher who made the change and record_author_user_id the person who wrote the record:
 * account deletion removes the entries of both, since `before` holds the record's text and e-mail.
 * A deletion has no `after`; an edit has one.
 */
export class CreateAuditLog1764000000100 implements MigrationInterface {
  name = 'CreateAuditLog1764000000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('editMessage', 'deleteMessage', 'deletePixel')),
        record_id uuid NOT NULL,
        record_author_user_id uuid NOT NULL,
        before jsonb NOT NULL,
        after jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((after IS NOT NULL) = (kind = 'editMessage'))
      )`);
    await db.query(`CREATE INDEX audit_log_session_seq_idx ON audit_log (session_id, seq)`);
    await db.query(`CREATE INDEX audit_log_author_idx ON audit_log (author_user_id)`);
    await db.query(`CREATE INDEX audit_log_record_author_idx ON audit_log (record_author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_log`);
  }
}
