import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages and pixels. `seq` (an identity, so bigserial without a separately owned sequence) is the
 * order key: total and stable even when two appends share a timestamp, and cheap to page on.
 * (session_id, seq) serves every listing of a session in order, and the export's keyset paging;
 * author_user_id serves account deletion.
 */
export class CreateRecordsTables1763856000000 implements MigrationInterface {
  name = 'CreateRecordsTables1763856000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX messages_session_seq_idx ON messages (session_id, seq)`);
    await db.query(`CREATE INDEX messages_author_idx ON messages (author_user_id)`);
    await db.query(`
      CREATE TABLE pixels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        color text NOT NULL,
        x double precision NOT NULL CHECK (x >= 0 AND x <= 1),
        y double precision NOT NULL CHECK (y >= 0 AND y <= 1),
        video_time double precision CHECK (video_time >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX pixels_session_seq_idx ON pixels (session_id, seq)`);
    await db.query(`CREATE INDEX pixels_author_idx ON pixels (author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE pixels`);
    await db.query(`DROP TABLE messages`);
  }
}
