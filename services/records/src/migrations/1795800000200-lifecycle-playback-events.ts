import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The playback log also records the session's end and its reopening (proto's PLAYBACK_EVENTS). */
export class LifecyclePlaybackEvents1795800000200 implements MigrationInterface {
  name = 'LifecyclePlaybackEvents1795800000200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE playback DROP CONSTRAINT playback_event_check`);
    await db.query(`ALTER TABLE playback ADD CONSTRAINT playback_event_check
      CHECK (event IN ('play', 'pause', 'seek', 'rate', 'prompt', 'end', 'reopen'))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM playback WHERE event IN ('end', 'reopen')`);
    await db.query(`ALTER TABLE playback DROP CONSTRAINT playback_event_check`);
    await db.query(`ALTER TABLE playback ADD CONSTRAINT playback_event_check
      CHECK (event IN ('play', 'pause', 'seek', 'rate', 'prompt'))`);
  }
}
