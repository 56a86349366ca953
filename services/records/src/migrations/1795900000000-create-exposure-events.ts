import type { MigrationInterface, QueryRunner } from 'typeorm';

/** proto's EXPOSURE_KINDS, as this migration knows them (a later kind needs a migration of its own). */
const KINDS = [
  'join',
  'leave',
  'mute',
  'unmute',
  'hidden',
  'visible',
  'fullscreen_enter',
  'fullscreen_exit',
  'stall',
  'stall_end',
];

/**
 * What each participant was exposed to: joins and leaves, sound off and on, the tab hidden and shown,
 * fullscreen, stalls. Shaped as every record of a session (the `seq` order key, (session_id, seq)
 * for listing and the export's keyset paging; the author is the participant). The id is the
 * client's event id, so a batch sent again is stored once (INSERT ... ON CONFLICT DO NOTHING);
 * client_time is the participant's clock, created_at the server's.
 */
export class CreateExposureEvents1795900000000 implements MigrationInterface {
  name = 'CreateExposureEvents1795900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE exposure_events (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id uuid NOT NULL,
        author_user_id uuid NOT NULL,
        author_email text NOT NULL,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN (${KINDS.map((kind) => `'${kind}'`).join(', ')})),
        video_time double precision CHECK (video_time >= 0),
        client_time timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX exposure_events_session_seq_idx ON exposure_events (session_id, seq)`);
    await db.query(`CREATE INDEX exposure_events_author_idx ON exposure_events (author_user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE exposure_events`);
  }
}
