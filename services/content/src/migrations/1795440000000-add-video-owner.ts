import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who uploaded each video, so a researcher's uploads can be counted against VIDEO_QUOTA_BYTES. Rows
 * uploaded before this column existed keep NULL: nobody is charged for them (content cannot tell who
 * uploaded them without asking studies about every session), and the next upload to such a session
 * fills it in.
 */
export class AddVideoOwner1795440000000 implements MigrationInterface {
  name = 'AddVideoOwner1795440000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE videos ADD COLUMN owner_id uuid`);
    // The quota check sums one researcher's videos on every upload.
    await db.query(`CREATE INDEX videos_owner_idx ON videos (owner_id) WHERE owner_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX videos_owner_idx`);
    await db.query(`ALTER TABLE videos DROP COLUMN owner_id`);
  }
}
