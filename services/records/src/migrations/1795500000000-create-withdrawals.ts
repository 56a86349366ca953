import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The withdrawal log. A participant's withdrawal from a session, shaped as every record of
 * it (the `seq` order key, (session_id, seq) for listing and the export's keyset paging; the author is
 * the participant who withdrew), with how many of their messages and clicks it deleted. Written in
 * the transaction that deleted them. author_user_id serves account deletion.
 */
export class CreateWithdrawals1795500000000 implements MigrationInterface {
  name = 'CreateWithdrawals1795500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE withdrawals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        messages integer NOT NULL CHECK (messages >= 0),
        clicks integer NOT NULL CHECK (clicks >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX withdrawals_session_seq_idx ON withdrawals (session_id, seq)`);
    await db.query(`CREATE INDEX withdrawals_author_idx ON withdrawals (author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE withdrawals`);
  }
}
