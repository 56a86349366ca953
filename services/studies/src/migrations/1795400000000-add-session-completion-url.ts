import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Where participants go when the researcher ends the live session (null: nowhere). */
export class AddSessionCompletionUrl1795400000000 implements MigrationInterface {
  name = 'AddSessionCompletionUrl1795400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE sessions ADD COLUMN completion_url text CHECK (char_length(completion_url) <= 2000)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions DROP COLUMN completion_url`);
  }
}
