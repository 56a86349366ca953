import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStudiesTables1795307601284 implements MigrationInterface {
  name = 'CreateStudiesTables1795307601284';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL,
        title text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`CREATE INDEX groups_owner_idx ON groups (owner_id, created_at)`);
    // No ON DELETE CASCADE: sessions go only through the path that first has content and records
    // delete their data, so a stray group delete fails loudly instead of orphaning that data.
    // scope: null is Everyone, otherwise a JSON array of lower-cased e-mails.
    await db.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL REFERENCES groups (id),
        title text NOT NULL,
        type text NOT NULL CHECK (type IN ('video', 'stream', 'chat')),
        scope jsonb CHECK (scope IS NULL OR jsonb_typeof(scope) = 'array'),
        track text NOT NULL DEFAULT '',
        source text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`CREATE INDEX sessions_group_idx ON sessions (group_id, created_at)`);
    // The participant list asks "scope holds my e-mail, or is Everyone": one index for each half.
    await db.query(`CREATE INDEX sessions_scope_idx ON sessions USING gin (scope jsonb_path_ops)`);
    await db.query(`CREATE INDEX sessions_everyone_idx ON sessions (created_at) WHERE scope IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sessions`);
    await db.query(`DROP TABLE groups`);
  }
}
