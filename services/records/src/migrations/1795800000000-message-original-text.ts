import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message keeps the text it was written with once a researcher edits it (`original_text`, set by
 * the first edit only; null: never edited), so an export tells edited messages from originals. A
 * message edited before this migration gets the `before` of its earliest editMessage audit entry.
 */
export class MessageOriginalText1795800000000 implements MigrationInterface {
  name = 'MessageOriginalText1795800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN original_text text`);
    await db.query(`
      UPDATE messages m SET original_text = first_edit.before ->> 'message'
      FROM (
        SELECT DISTINCT ON (record_id) record_id, before
        FROM audit_log WHERE kind = 'editMessage'
        ORDER BY record_id, seq
      ) first_edit
      WHERE first_edit.record_id = m.id`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages DROP COLUMN original_text`);
  }
}
