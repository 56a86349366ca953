import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The kinds of record whose `seq` answers show (MessageRecord.seq, PlaybackRecord.seq). */
const COUNTED = ['messages', 'playback'] as const;

/**
 * Messages and playback entries count `seq` per session: as a global identity it told a participant
 * how many messages every other session wrote. record_sequences holds each session's last value;
 * messages' append draws its values there in its own statement (messages.service.ts), and a trigger
 * draws them for any other insert that leaves `seq` out (playback's append, and a replica still
 * running the previous code during a rolling deploy). Existing rows are renumbered 1, 2, ... per
 * session in their old order, so every session keeps its order. (session_id, seq) becomes unique.
 */
export class PerSessionOrder1795700000000 implements MigrationInterface {
  name = 'PerSessionOrder1795700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE record_sequences (
        session_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN (${COUNTED.map((kind) => `'${kind}'`).join(', ')})),
        last bigint NOT NULL CHECK (last > 0),
        PRIMARY KEY (session_id, kind)
      )`);
    // search_path fixed to this schema's, whoever's connection inserts.
    await db.query(`
      CREATE FUNCTION next_session_seq() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO record_sequences AS s (session_id, kind, last) VALUES (NEW.session_id, TG_TABLE_NAME, 1)
        ON CONFLICT (session_id, kind) DO UPDATE SET last = s.last + 1
        RETURNING last INTO NEW.seq;
        RETURN NEW;
      END $$`);
    for (const table of COUNTED) {
      await db.query(`ALTER TABLE ${table} ALTER COLUMN seq DROP IDENTITY`);
      await db.query(`DROP INDEX ${table}_session_seq_idx`);
      await db.query(`
        UPDATE ${table} AS t SET seq = o.n
        FROM (SELECT id, row_number() OVER (PARTITION BY session_id ORDER BY seq) AS n FROM ${table}) AS o
        WHERE t.id = o.id`);
      await db.query(`CREATE UNIQUE INDEX ${table}_session_seq_idx ON ${table} (session_id, seq)`);
      await db.query(`
        INSERT INTO record_sequences (session_id, kind, last)
        SELECT session_id, '${table}', max(seq) FROM ${table} GROUP BY session_id`);
      await db.query(`
        CREATE TRIGGER ${table}_session_seq BEFORE INSERT ON ${table}
        FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION next_session_seq()`);
    }
  }

  /** Back to an identity, started past every value, so each session's new rows still come last. */
  async down(db: QueryRunner): Promise<void> {
    for (const table of COUNTED) {
      await db.query(`DROP TRIGGER ${table}_session_seq ON ${table}`);
      await db.query(`DROP INDEX ${table}_session_seq_idx`);
      await db.query(`CREATE INDEX ${table}_session_seq_idx ON ${table} (session_id, seq)`);
      const [{ start }] = (await db.query(`SELECT coalesce(max(seq), 0) + 1 AS start FROM ${table}`)) as [
        { start: string },
      ];
      await db.query(
        `ALTER TABLE ${table} ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (START WITH ${BigInt(start)})`,
      );
    }
    await db.query(`DROP FUNCTION next_session_seq()`);
    await db.query(`DROP TABLE record_sequences`);
  }
}
