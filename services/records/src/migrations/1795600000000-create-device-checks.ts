import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The participants' pre-session checks. Shaped as every record of a session (the `seq`
 * order key, (session_id, seq) for listing and the export's keyset paging; the author is the person
 * who ran the check), with each item's outcome and the browser. author_user_id serves account
 * deletion and withdrawal.
 */
export class CreateDeviceChecks1795600000000 implements MigrationInterface {
  name = 'CreateDeviceChecks1795600000000';

  async up(db: QueryRunner): Promise<void> {
    const outcome = (column: string) => `${column} text NOT NULL CHECK (${column} IN ('pass', 'fail'))`;
    await db.query(`
      CREATE TABLE device_checks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        browser_name text NOT NULL,
        browser_version text NOT NULL,
        ${['camera', 'microphone', 'speakers', 'stun', 'turn', 'rtt'].map(outcome).join(',\n        ')},
        rtt_ms integer CHECK (rtt_ms >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX device_checks_session_seq_idx ON device_checks (session_id, seq)`);
    await db.query(`CREATE INDEX device_checks_author_idx ON device_checks (author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE device_checks`);
  }
}
