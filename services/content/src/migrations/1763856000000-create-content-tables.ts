import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Actions, prompts and videos of sessions that studies owns. No foreign key to sessions: they live in
 * studies' schema, which content never reads; studies asks content to delete a session's rows instead.
 */
export class CreateContentTables1763856000000 implements MigrationInterface {
  name = 'CreateContentTables1763856000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL,
        name text NOT NULL,
        color text NOT NULL,
        icon text NOT NULL,
        style text NOT NULL CHECK (style IN ('filled', 'outlined', 'round', 'sharp', 'two-tone')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`CREATE INDEX actions_session_idx ON actions (session_id, created_at)`);
    // Prompts are keyed by their start second (spec section 3): one prompt per second of a session.
    await db.query(`
      CREATE TABLE prompts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL,
        time_seconds integer NOT NULL CHECK (time_seconds >= 0),
        duration_seconds double precision NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
        prompt text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT prompts_session_time_key UNIQUE (session_id, time_seconds)
      )`);
    // One video per session; the object key is unique per upload, so a replaced object is never
    // overwritten in place while someone is still reading it.
    await db.query(`
      CREATE TABLE videos (
        session_id uuid PRIMARY KEY,
        object_key text NOT NULL UNIQUE,
        name text NOT NULL,
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        etag text NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE videos`);
    await db.query(`DROP TABLE prompts`);
    await db.query(`DROP TABLE actions`);
  }
}
