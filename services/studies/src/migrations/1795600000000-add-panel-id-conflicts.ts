import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A participant keeps the panel ids of their first join; later joins with other ids are kept beside
 * them as conflicts (PANEL_ID_CONFLICTS_MAX at most). Rows that a merge of joins grew past
 * PANEL_IDS_MAX keep none of them (which were first is not known any more): moved to the conflicts.
 */
export class AddPanelIdConflicts1795600000000 implements MigrationInterface {
  name = 'AddPanelIdConflicts1795600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE session_participants ADD COLUMN panel_id_conflicts jsonb NOT NULL DEFAULT '[]'::jsonb`,
    );
    await db.query(`
      UPDATE session_participants
      SET panel_id_conflicts = jsonb_build_array(jsonb_build_object('at', now(), 'panelIds', panel_ids)),
          panel_ids = '{}'::jsonb
      WHERE (SELECT count(*) FROM jsonb_object_keys(panel_ids)) > 10`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE session_participants DROP COLUMN panel_id_conflicts`);
  }
}
