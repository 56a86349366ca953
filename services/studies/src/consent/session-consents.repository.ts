import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Sql } from '../database/sql';

/** A row of `session_consents`: one version of a session's consent text. */
export interface ConsentVersionRow {
  version: number;
  text: string;
  sha256: string;
  createdAt: Date;
}

const COLUMNS = `version, text, sha256, created_at AS "createdAt"`;

/** The session_consents table: every version of every session's consent text. */
@Injectable()
export class SessionConsentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The session's current (newest) version, or null. */
  async current(sessionId: string, db: Sql = this.db): Promise<ConsentVersionRow | null> {
    const [row] = await db.query<ConsentVersionRow[]>(
      `SELECT ${COLUMNS} FROM session_consents WHERE session_id = $1 ORDER BY version DESC LIMIT 1`,
      [sessionId],
    );
    return row ?? null;
  }

  async create(
    sessionId: string,
    version: { version: number; text: string; sha256: string },
    tx: Sql,
  ): Promise<ConsentVersionRow> {
    const [row] = await tx.query<ConsentVersionRow[]>(
      `INSERT INTO session_consents (session_id, version, text, sha256) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [sessionId, version.version, version.text, version.sha256],
    );
    return row!;
  }

  /** Every version of these sessions, by session and version. */
  ofSessions(sessionIds: readonly string[]): Promise<(ConsentVersionRow & { sessionId: string })[]> {
    return this.db.query(
      `SELECT session_id AS "sessionId", ${COLUMNS} FROM session_consents
       WHERE session_id = ANY($1::uuid[]) ORDER BY session_id, version`,
      [sessionIds],
    );
  }
}
