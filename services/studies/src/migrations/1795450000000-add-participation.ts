import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session's participants as studies knows them (invited by mail, joined, by which way,
 * with a recruitment panel's ids) and its join link (one per session; revoking deletes it).
 */
export class AddParticipation1795450000000 implements MigrationInterface {
  name = 'AddParticipation1795450000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE session_participants (
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        email text NOT NULL,
        user_id uuid,
        source text NOT NULL CHECK (source IN ('scope', 'link')),
        invitations integer NOT NULL DEFAULT 0,
        invited_at timestamptz,
        joined_at timestamptz,
        panel_ids jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, email)
      )`);
    await db.query(`
      CREATE TABLE join_links (
        session_id uuid PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        token text NOT NULL UNIQUE,
        max_participants integer CHECK (max_participants > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE join_links`);
    await db.query(`DROP TABLE session_participants`);
  }
}
