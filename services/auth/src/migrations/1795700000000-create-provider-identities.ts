import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with a provider by who signed in there (issuer and subject), not by the e-mail it sends;
 * a link minted for a proven e-mail may carry the provider account to link when it is used.
 */
export class CreateProviderIdentities1795700000000 implements MigrationInterface {
  name = 'CreateProviderIdentities1795700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE provider_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await db.query(`CREATE INDEX provider_identities_user_idx ON provider_identities (user_id)`);
    await db.query(`
      ALTER TABLE magic_links
        ADD COLUMN identity_issuer text,
        ADD COLUMN identity_subject text,
        ADD CONSTRAINT magic_links_identity_check
          CHECK ((identity_issuer IS NULL) = (identity_subject IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE magic_links
        DROP CONSTRAINT magic_links_identity_check,
        DROP COLUMN identity_subject,
        DROP COLUMN identity_issuer`);
    await db.query(`DROP TABLE provider_identities`);
  }
}
