import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SessionLifecycleChange, SessionState, SessionType } from '@uis/proto';
import type { DataSource } from 'typeorm';
import type { Changed, Sql } from '../database/sql';

/** A row of `sessions`; a session belongs to one group, and through it to the group's owner. */
export interface SessionRow {
  id: string;
  groupId: string;
  title: string;
  type: SessionType;
  /** Lower-cased e-mails of the participants, or null for Everyone. */
  scope: string[] | null;
  track: string;
  source: string;
  /** Where participants go when the researcher ends the live session; null: nowhere. */
  completionUrl: string | null;
  /** Not started, live or ended (set only by `changeState`). */
  state: SessionState;
}

/** A session with its group's owner: what the owner's routes read. */
export type OwnedSessionRow = SessionRow & { ownerId: string };

/** What an access check reads of a session: its type, its scope and its group's owner. */
export interface MembershipRow {
  id: string;
  type: SessionType;
  state: SessionState;
  scope: string[] | null;
  ownerId: string;
}

/** The columns an edit may change (a scope as stored: null for Everyone). */
export type SessionChanges = Partial<
  Pick<SessionRow, 'title' | 'scope' | 'track' | 'completionUrl' | 'type' | 'source'>
>;

const COLUMNS = `s.id, s.group_id AS "groupId", s.title, s.type, s.scope, s.track, s.source,
  s.completion_url AS "completionUrl", s.state`;

/**
 * Each lifecycle change: the states it moves a session from, and to. A change from any other state
 * changes nothing (starting a live or ended session, reopening one that has not ended).
 */
const LIFECYCLE: Record<SessionLifecycleChange, { from: SessionState[]; to: SessionState; stamp: string }> = {
  start: { from: ['not_started'], to: 'live', stamp: 'started_at' },
  end: { from: ['not_started', 'live'], to: 'ended', stamp: 'ended_at' },
  reopen: { from: ['ended'], to: 'live', stamp: 'started_at' },
};

/** Each changeable column and how its value is sent (jsonb goes as JSON text). */
const CHANGEABLE: { [K in keyof Required<SessionChanges>]: { column: string; cast: string } } = {
  title: { column: 'title', cast: 'text' },
  scope: { column: 'scope', cast: 'jsonb' },
  track: { column: 'track', cast: 'text' },
  completionUrl: { column: 'completion_url', cast: 'text' },
  type: { column: 'type', cast: 'text' },
  source: { column: 'source', cast: 'text' },
};

/** A JSON array holding only the e-mail: what `scope @>` asks. */
const member = (email: string) => JSON.stringify([email]);

/** The sessions table: every statement studies sends about it. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A group's sessions, oldest first. */
  listInGroup(groupId: string): Promise<SessionRow[]> {
    return this.db.query<SessionRow[]>(
      `SELECT ${COLUMNS} FROM sessions s WHERE s.group_id = $1 ORDER BY s.created_at ASC, s.id ASC`,
      [groupId],
    );
  }

  /** A new session; an unknown group fails with Postgres's foreign-key violation. */
  async create(session: Omit<SessionRow, 'id' | 'state'>): Promise<SessionRow> {
    const [row] = await this.db.query<SessionRow[]>(
      `INSERT INTO sessions AS s (group_id, title, type, scope, track, source, completion_url)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        session.groupId,
        session.title,
        session.type,
        session.scope === null ? null : JSON.stringify(session.scope),
        session.track,
        session.source,
        session.completionUrl,
      ],
    );
    return row!;
  }

  /** The session with its group's owner, or null. */
  async findWithOwner(id: string): Promise<OwnedSessionRow | null> {
    const [row] = await this.db.query<OwnedSessionRow[]>(
      `SELECT ${COLUMNS}, g.owner_id AS "ownerId" FROM sessions s JOIN groups g ON g.id = s.group_id
       WHERE s.id = $1 LIMIT 1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * The memberships of the sessions `ids` (an unknown id has no row). One statement, rows as pg
   * gives them: every REST read of records and content, and realtime's batched joins, ask this.
   */
  memberships(ids: readonly string[]): Promise<MembershipRow[]> {
    return this.db.query<MembershipRow[]>(
      `SELECT s.id, s.type, s.state, s.scope, g.owner_id AS "ownerId"
       FROM sessions s JOIN groups g ON g.id = s.group_id
       WHERE s.id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Saves the changes; answers how many rows changed (0: no such session any more). */
  async update(id: string, changes: SessionChanges): Promise<number> {
    const keys = (Object.keys(changes) as (keyof SessionChanges)[]).filter(
      (key) => changes[key] !== undefined,
    );
    const values = keys.map((key) =>
      key === 'scope' && changes.scope !== null ? JSON.stringify(changes.scope) : changes[key],
    );
    const sets = keys.map((key, i) => `${CHANGEABLE[key].column} = $${i + 2}::${CHANGEABLE[key].cast}`);
    const [, count] = await this.db.query<Changed>(`UPDATE sessions SET ${sets.join(', ')} WHERE id = $1`, [
      id,
      ...values,
    ]);
    return count;
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM sessions WHERE id = $1`, [id]);
  }

  /**
   * A participant's list: the sessions whose scope holds the e-mail, and the Everyone sessions of
   * researchers whose links, invitations or sessions brought them (a participant row in any session
   * of theirs), oldest first. Another lab's Everyone sessions are not listed to them (they still
   * open by their link, as the spec has it).
   */
  listOpenTo(email: string): Promise<Pick<SessionRow, 'id' | 'type' | 'title'>[]> {
    return this.db.query(
      `SELECT s.id, s.type, s.title FROM sessions s JOIN groups g ON g.id = s.group_id
       WHERE s.scope @> $1::jsonb
          OR (s.scope IS NULL AND g.owner_id IN (
                SELECT g2.owner_id FROM session_participants p
                JOIN sessions s2 ON s2.id = p.session_id JOIN groups g2 ON g2.id = s2.group_id
                WHERE p.email = $2))
       ORDER BY s.created_at ASC, s.id ASC`,
      [member(email), email],
    );
  }

  /**
   * Moves the session through its life in one statement (two callers at once: one changes it, the
   * other finds it changed). Null when there is no such session.
   */
  async changeState(
    id: string,
    change: SessionLifecycleChange,
  ): Promise<{ state: SessionState; changed: boolean; completionUrl: string | null } | null> {
    const { from, to, stamp } = LIFECYCLE[change];
    const [row] = await this.db.query<
      { state: SessionState; changed: boolean; completionUrl: string | null }[]
    >(
      `WITH moved AS (
         UPDATE sessions SET state = $2, ${stamp} = now() WHERE id = $1 AND state = ANY($3::text[])
         RETURNING state, completion_url
       )
       SELECT state, true AS changed, completion_url AS "completionUrl" FROM moved
       UNION ALL
       SELECT state, false, completion_url FROM sessions WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM moved)`,
      [id, to, from],
    );
    return row ?? null;
  }

  /** A session's scope (null: Everyone), or undefined when there is no such session. */
  async scopeOf(id: string): Promise<string[] | null | undefined> {
    const [row] = await this.db.query<{ scope: string[] | null }[]>(
      `SELECT scope FROM sessions WHERE id = $1 LIMIT 1`,
      [id],
    );
    return row ? row.scope : undefined;
  }

  /** The titles in the group that start with `prefix` (to number the next default title). */
  async titlesStartingWith(groupId: string, prefix: string): Promise<string[]> {
    const rows = await this.db.query<{ title: string }[]>(
      `SELECT title FROM sessions WHERE group_id = $1 AND title LIKE $2`,
      [groupId, `${prefix}%`],
    );
    return rows.map((row) => row.title);
  }

  /** The ids of the groups' sessions, oldest first. */
  async idsInGroups(groupIds: readonly string[], db: Sql = this.db): Promise<string[]> {
    const rows = await db.query<{ id: string }[]>(
      `SELECT id FROM sessions WHERE group_id = ANY($1::uuid[]) ORDER BY created_at ASC, id ASC`,
      [groupIds],
    );
    return rows.map((row) => row.id);
  }

  async deleteInGroups(groupIds: readonly string[], tx: Sql): Promise<void> {
    await tx.query(`DELETE FROM sessions WHERE group_id = ANY($1::uuid[])`, [groupIds]);
  }

  /** Locks the session's row against key changes for the rest of `tx`; false when there is none. */
  async lockKey(id: string, tx: Sql): Promise<boolean> {
    const rows = await tx.query<unknown[]>(`SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE`, [id]);
    return rows.length > 0;
  }

  /** Locks the session's row for the rest of `tx`: its scope and its group's owner, or null. */
  async lockWithOwner(id: string, tx: Sql): Promise<MembershipRow | null> {
    const [row] = await tx.query<MembershipRow[]>(
      `SELECT s.id, s.type, s.state, s.scope, g.owner_id AS "ownerId"
       FROM sessions s JOIN groups g ON g.id = s.group_id
       WHERE s.id = $1 FOR UPDATE OF s`,
      [id],
    );
    return row ?? null;
  }

  /** The e-mail joins the session's scope (a list; Everyone has none to join). */
  async addToScope(id: string, email: string, tx: Sql): Promise<void> {
    await tx.query(`UPDATE sessions SET scope = scope || jsonb_build_array($2::text) WHERE id = $1`, [
      id,
      email,
    ]);
  }

  /** The e-mail leaves the session's scope, when it is a list that names it. */
  async removeFromScope(id: string, email: string, tx: Sql): Promise<void> {
    await tx.query(
      `UPDATE sessions SET scope = scope - CAST($2 AS text) WHERE id = $1 AND scope @> CAST($3 AS jsonb)`,
      [id, email, member(email)],
    );
  }

  /** Account deletion: the e-mail leaves every scope that names it (idempotent). */
  async removeFromEveryScope(email: string): Promise<void> {
    await this.db.query(
      `UPDATE sessions SET scope = scope - CAST($1 AS text) WHERE scope @> CAST($2 AS jsonb)`,
      [email, member(email)],
    );
  }
}
