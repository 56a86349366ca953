import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consent. session_consents keeps every version of a session's consent text (a new one
 * only when the text changes; an empty text asks for no consent), with the SHA-256 of its UTF-8
 * bytes. consent_acceptances keeps who agreed to which version, when, and the hash they agreed to;
 * a withdrawal ends an agreement (withdrawn_at) rather than deleting it, so the export still shows
 * what was agreed. Both go with their session (studies' own data: nothing elsewhere to delete first).
 * A participant has at most one agreement in force per version (the partial unique index).
 */
export class CreateConsentTables1795500000000 implements MigrationInterface {
  name = 'CreateConsentTables1795500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE session_consents (
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version > 0),
        text text NOT NULL CHECK (char_length(text) <= 20000),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (session_id, version)
      )`);
    await db.query(`
      CREATE TABLE consent_acceptances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL,
        version integer NOT NULL,
        user_id uuid NOT NULL,
        email text NOT NULL,
        name text NOT NULL,
        sha256 text NOT NULL,
        accepted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        withdrawn_at timestamptz,
        FOREIGN KEY (session_id, version) REFERENCES session_consents (session_id, version) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE UNIQUE INDEX consent_acceptances_in_force_idx
        ON consent_acceptances (session_id, user_id, version) WHERE withdrawn_at IS NULL`);
    await db.query(
      `CREATE INDEX consent_acceptances_session_idx ON consent_acceptances (session_id, accepted_at)`,
    );
    await db.query(`CREATE INDEX consent_acceptances_user_idx ON consent_acceptances (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE consent_acceptances`);
    await db.query(`DROP TABLE session_consents`);
  }
}
