import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Sql } from '../database/sql';

/**
 * A row of `join_links`, a session's join link. The token is kept as it is, not hashed: it is a
 * capability meant to be shared (posted on a recruitment panel), and its researcher copies it again
 * from the editor; it only ever adds the bearer to this session's scope, never signs anyone in.
 */
export interface JoinLinkRow {
  sessionId: string;
  token: string;
  maxParticipants: number | null;
  createdAt: Date;
}

const COLUMNS = `session_id AS "sessionId", token, max_participants AS "maxParticipants", created_at AS "createdAt"`;

/** The join_links table: every statement studies sends about it. */
@Injectable()
export class JoinLinksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async ofSession(sessionId: string): Promise<JoinLinkRow | null> {
    const [row] = await this.db.query<JoinLinkRow[]>(
      `SELECT ${COLUMNS} FROM join_links WHERE session_id = $1 LIMIT 1`,
      [sessionId],
    );
    return row ?? null;
  }

  async byToken(token: string, db: Sql = this.db): Promise<JoinLinkRow | null> {
    const [row] = await db.query<JoinLinkRow[]>(
      `SELECT ${COLUMNS} FROM join_links WHERE token = $1 LIMIT 1`,
      [token],
    );
    return row ?? null;
  }

  /** The session's link, replacing any earlier one. */
  async replace(link: JoinLinkRow): Promise<JoinLinkRow> {
    const [row] = await this.db.query<JoinLinkRow[]>(
      `INSERT INTO join_links (session_id, token, max_participants, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token,
         max_participants = EXCLUDED.max_participants, created_at = EXCLUDED.created_at
       RETURNING ${COLUMNS}`,
      [link.sessionId, link.token, link.maxParticipants, link.createdAt],
    );
    return row!;
  }

  async delete(sessionId: string): Promise<void> {
    await this.db.query(`DELETE FROM join_links WHERE session_id = $1`, [sessionId]);
  }
}
