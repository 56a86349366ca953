import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuthTables1763769600000 implements MigrationInterface {
  name = 'CreateAuthTables1763769600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL UNIQUE,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('researcher', 'participant')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE magic_links (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX magic_links_email_idx ON magic_links (email)`);
    await db.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        family_id uuid NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await db.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE refresh_tokens`);
    await db.query(`DROP TABLE magic_links`);
    await db.query(`DROP TABLE users`);
  }
}
