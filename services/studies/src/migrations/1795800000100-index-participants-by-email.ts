import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A participant's list asks which researchers' sessions name their e-mail (sessions.repository's listOpenTo). */
export class IndexParticipantsByEmail1795800000100 implements MigrationInterface {
  name = 'IndexParticipantsByEmail1795800000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX session_participants_email_idx ON session_participants (email)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX session_participants_email_idx`);
  }
}
