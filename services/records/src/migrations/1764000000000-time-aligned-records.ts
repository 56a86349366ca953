import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time-aligned records: a message keeps the session's video time when it was stored, and a
 * reaction its action's id; the playback log is a third kind of record, shaped as the others (the
 * `seq` order key, (session_id, seq) for listing and export, author_user_id for account deletion).
 */
export class TimeAlignedRecords1764000000000 implements MigrationInterface {
  name = 'TimeAlignedRecords1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE messages
        ADD COLUMN video_time double precision CHECK (video_time >= 0),
        ADD COLUMN action_id uuid`);
    await db.query(`
      CREATE TABLE playback (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        event text NOT NULL CHECK (event IN ('play', 'pause', 'seek', 'rate', 'prompt')),
        video_time double precision NOT NULL CHECK (video_time >= 0),
        playback_rate double precision NOT NULL CHECK (playback_rate > 0),
        prompt_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX playback_session_seq_idx ON playback (session_id, seq)`);
    await db.query(`CREATE INDEX playback_author_idx ON playback (author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE playback`);
    await db.query(`ALTER TABLE messages DROP COLUMN video_time, DROP COLUMN action_id`);
  }
}
