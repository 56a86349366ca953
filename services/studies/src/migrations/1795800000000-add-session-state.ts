import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a session is in its life: not started, live or ended (proto's SESSION_STATES), and when it
 * last started and ended. Sessions made before this behaved as open rooms, so they become live; a
 * new one starts as not started.
 */
export class AddSessionState1795800000000 implements MigrationInterface {
  name = 'AddSessionState1795800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE sessions
        ADD COLUMN state text NOT NULL DEFAULT 'live' CHECK (state IN ('not_started', 'live', 'ended')),
        ADD COLUMN started_at timestamptz,
        ADD COLUMN ended_at timestamptz`);
    await db.query(`ALTER TABLE sessions ALTER COLUMN state SET DEFAULT 'not_started'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sessions DROP COLUMN state, DROP COLUMN started_at, DROP COLUMN ended_at`);
  }
}
