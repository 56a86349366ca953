import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  PANEL_ID_CONFLICTS_MAX,
  type PanelIdConflicts,
  type PanelIds,
  type ParticipantSource,
  type RosterEntry,
} from '@uis/proto';
import type { DataSource } from 'typeorm';
import type { Sql } from '../database/sql';

/** A row of `session_participants`: someone a session's scope names, or who joined it by its link. */
export interface ParticipantRow {
  sessionId: string;
  /** Lower-cased, as in the scope. */
  email: string;
  /** Known once they opened the session signed in. */
  userId: string | null;
  source: ParticipantSource;
  /** Invitation mails sent, and when the last one went. */
  invitations: number;
  invitedAt: Date | null;
  /** When they first opened the session. */
  joinedAt: Date | null;
  /** The panel ids of their first join that carried any. */
  panelIds: PanelIds;
  /** Other panel ids later joins carried (PANEL_ID_CONFLICTS_MAX at most). */
  panelIdConflicts: PanelIdConflicts;
  createdAt: Date;
}

const COLUMNS = `session_id AS "sessionId", email, user_id AS "userId", source, invitations,
  invited_at AS "invitedAt", joined_at AS "joinedAt", panel_ids AS "panelIds",
  panel_id_conflicts AS "panelIdConflicts", created_at AS "createdAt"`;

/** A scope's e-mails as a list; null (Everyone) names nobody. */
const named = (scope: readonly string[] | null): readonly string[] => scope ?? [];

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A person the scope names who has no row yet (named before rows were kept): not invited, not come. */
const unrecorded = (sessionId: string, email: string): ParticipantRow => ({
  sessionId,
  email,
  userId: null,
  source: 'scope',
  invitations: 0,
  invitedAt: null,
  joinedAt: null,
  panelIds: {},
  panelIdConflicts: [],
  createdAt: new Date(0),
});

/** The session_participants table: who a session's scope names or who joined it by link, and how. */
@Injectable()
export class SessionParticipantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The scope changed from `before` to `after`: people it no longer names leave the list (with what
   * was kept of them), people it names now are added. Answers the added e-mails (to invite).
   */
  async scopeChanged(
    sessionId: string,
    before: readonly string[] | null,
    after: readonly string[] | null,
  ): Promise<string[]> {
    const added = named(after).filter((email) => !named(before).includes(email));
    const removed = after === null ? [] : named(before).filter((email) => !after.includes(email));
    if (removed.length > 0)
      await this.db.query(`DELETE FROM session_participants WHERE session_id = $1 AND email = ANY($2)`, [
        sessionId,
        removed,
      ]);
    if (added.length > 0)
      await this.db.query(
        `INSERT INTO session_participants (session_id, email, source)
         SELECT $1, email, 'scope' FROM unnest($2::text[]) AS email
         ON CONFLICT (session_id, email) DO NOTHING`,
        [sessionId, added],
      );
    return added;
  }

  /**
   * The user opened the session (or joined it by its link): their row says when first and who they
   * are. The panel ids of the first join that carried any are kept; a later join's that are not
   * among them are added to the conflicts (up to PANEL_ID_CONFLICTS_MAX), never merged in, so a
   * visitor joining again and again cannot grow the row or rewrite the ids recorded. `source` only
   * for a new row.
   */
  async joined(
    sessionId: string,
    user: { id: string; email: string },
    { source = 'scope', panelIds = {} }: { source?: ParticipantSource; panelIds?: PanelIds } = {},
    db: Sql = this.db,
  ): Promise<void> {
    await db.query(
      `INSERT INTO session_participants (session_id, email, user_id, source, joined_at, panel_ids)
       VALUES ($1, $2, $3, $4, now(), $5)
       ON CONFLICT (session_id, email) DO UPDATE SET
         user_id = EXCLUDED.user_id,
         joined_at = COALESCE(session_participants.joined_at, EXCLUDED.joined_at),
         panel_ids = CASE WHEN session_participants.panel_ids = '{}'::jsonb
           THEN EXCLUDED.panel_ids ELSE session_participants.panel_ids END,
         panel_id_conflicts = CASE
           WHEN session_participants.panel_ids <> '{}'::jsonb
             AND NOT session_participants.panel_ids @> EXCLUDED.panel_ids
             AND jsonb_array_length(session_participants.panel_id_conflicts) < $6
           THEN session_participants.panel_id_conflicts
             || jsonb_build_array(jsonb_build_object('at', now(), 'panelIds', EXCLUDED.panel_ids))
           ELSE session_participants.panel_id_conflicts END`,
      [sessionId, user.email, user.id, source, JSON.stringify(panelIds), PANEL_ID_CONFLICTS_MAX],
    );
  }

  /**
   * The e-mails the sessions of `ownerId`'s groups name in their scopes or list as participants
   * (joined by link, invited, opened), at most `limit`, in order: the researcher's own people.
   */
  async namedBy(ownerId: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ email: string }[]>(
      `SELECT email FROM (
         SELECT jsonb_array_elements_text(s.scope) AS email
         FROM sessions s JOIN groups g ON g.id = s.group_id
         WHERE g.owner_id = $1 AND jsonb_typeof(s.scope) = 'array'
         UNION
         SELECT p.email FROM session_participants p
         JOIN sessions s ON s.id = p.session_id JOIN groups g ON g.id = s.group_id
         WHERE g.owner_id = $1
       ) named ORDER BY email LIMIT $2`,
      [ownerId, limit],
    );
    return rows.map((row) => row.email);
  }

  /** An invitation mail went to the address. */
  async invited(sessionId: string, email: string): Promise<void> {
    await this.db.query(
      `UPDATE session_participants SET invitations = invitations + 1, invited_at = now()
       WHERE session_id = $1 AND email = $2`,
      [sessionId, email],
    );
  }

  /** People who joined through the session's link so far (its cap counts them). */
  async joinedByLink(sessionId: string, db: Sql = this.db): Promise<number> {
    const [row] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM session_participants WHERE session_id = $1 AND source = 'link'`,
      [sessionId],
    );
    return row!.count;
  }

  async find(sessionId: string, email: string, db: Sql = this.db): Promise<ParticipantRow | null> {
    const [row] = await db.query<ParticipantRow[]>(
      `SELECT ${COLUMNS} FROM session_participants WHERE session_id = $1 AND email = $2 LIMIT 1`,
      [sessionId, email],
    );
    return row ?? null;
  }

  /**
   * The session's participants: everyone the scope names (a row or not) and, for Everyone, everyone
   * with a row (who opened it or joined by link); in the order they were added.
   */
  async list(sessionId: string, scope: readonly string[] | null): Promise<ParticipantRow[]> {
    const rows = await this.db.query<ParticipantRow[]>(
      `SELECT ${COLUMNS} FROM session_participants WHERE session_id = $1 ORDER BY created_at ASC, email ASC`,
      [sessionId],
    );
    if (scope === null) return rows;
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    const listed = rows.filter((row) => scope.includes(row.email));
    const missing = scope.filter((email) => !byEmail.has(email)).map((email) => unrecorded(sessionId, email));
    return [...listed, ...missing];
  }

  /** A withdrawal: the session forgets the e-mail's invitations, join and panel ids. */
  async forgetIn(sessionId: string, email: string, db: Sql = this.db): Promise<void> {
    await db.query(`DELETE FROM session_participants WHERE session_id = $1 AND email = $2`, [
      sessionId,
      email,
    ]);
  }

  /** Account deletion: every session forgets the e-mail's invitations, joins and panel ids. */
  async forget(email: string): Promise<void> {
    await this.db.query(`DELETE FROM session_participants WHERE email = $1`, [email]);
  }

  /** The roster for records' export. */
  async roster(sessionId: string, scope: readonly string[] | null): Promise<RosterEntry[]> {
    return (await this.list(sessionId, scope)).map((row) => ({
      email: row.email,
      userId: row.userId,
      source: row.source,
      invitedAt: iso(row.invitedAt),
      joinedAt: iso(row.joinedAt),
      panelIds: row.panelIds,
      panelIdConflicts: row.panelIdConflicts,
    }));
  }
}
