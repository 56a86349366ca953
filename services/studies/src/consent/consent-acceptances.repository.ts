import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Sql } from '../database/sql';

/** A row of `consent_acceptances`: a participant's agreement to one version of a consent text. */
export interface AcceptanceRow {
  sessionId: string;
  userId: string;
  name: string;
  email: string;
  version: number;
  sha256: string;
  acceptedAt: Date;
  withdrawnAt: Date | null;
}

const COLUMNS = `session_id AS "sessionId", user_id AS "userId", name, email, version, sha256,
  accepted_at AS "acceptedAt", withdrawn_at AS "withdrawnAt"`;

/**
 * Of the (session, user) pairs $1/$2, the ordinals (from 1) of those whose session's current consent
 * text does not hash to $3 (the empty text) and who have no agreement in force to it. One statement
 * for a whole batch of access checks; a session without a consent text costs one index probe.
 */
const PENDING_SQL = `
  SELECT q.i::int AS i
  FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS q(session_id, user_id, i)
  CROSS JOIN LATERAL (
    SELECT c.version, c.sha256 FROM session_consents c
    WHERE c.session_id = q.session_id ORDER BY c.version DESC LIMIT 1
  ) cur
  WHERE cur.sha256 <> $3 AND NOT EXISTS (
    SELECT 1 FROM consent_acceptances a
    WHERE a.session_id = q.session_id AND a.user_id = q.user_id AND a.version = cur.version
      AND a.withdrawn_at IS NULL)`;

/** Agrees to the current version when its hash is $5 and not $6 (the empty text); nothing when already agreed. */
const ACCEPT_SQL = `
  INSERT INTO consent_acceptances (session_id, version, user_id, email, name, sha256)
  SELECT c.session_id, c.version, $2, $3, $4, c.sha256
  FROM (SELECT session_id, version, sha256 FROM session_consents WHERE session_id = $1
        ORDER BY version DESC LIMIT 1) c
  WHERE c.sha256 = $5 AND c.sha256 <> $6
  ON CONFLICT (session_id, user_id, version) WHERE withdrawn_at IS NULL DO NOTHING
  RETURNING id`;

/** The consent_acceptances table: who agreed to which version, and who withdrew. */
@Injectable()
export class ConsentAcceptancesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every agreement to the session's texts, newest first. */
  ofSession(sessionId: string): Promise<AcceptanceRow[]> {
    return this.db.query<AcceptanceRow[]>(
      `SELECT ${COLUMNS} FROM consent_acceptances WHERE session_id = $1
       ORDER BY accepted_at DESC, id`,
      [sessionId],
    );
  }

  /** When the user agreed to the version, if their agreement is in force. */
  async acceptedAt(sessionId: string, userId: string, version: number): Promise<Date | null> {
    const [row] = await this.db.query<{ acceptedAt: Date }[]>(
      `SELECT accepted_at AS "acceptedAt" FROM consent_acceptances
       WHERE session_id = $1 AND user_id = $2 AND version = $3 AND withdrawn_at IS NULL`,
      [sessionId, userId, version],
    );
    return row?.acceptedAt ?? null;
  }

  /**
   * The user agrees to the session's current version if it hashes to `sha256` and is not the empty
   * text `emptySha256`; answers whether a new agreement was written.
   */
  async acceptCurrent(
    sessionId: string,
    user: { id: string; email: string; name: string },
    sha256: string,
    emptySha256: string,
  ): Promise<boolean> {
    const inserted = await this.db.query<unknown[]>(ACCEPT_SQL, [
      sessionId,
      user.id,
      user.email,
      user.name,
      sha256,
      emptySha256,
    ]);
    return inserted.length > 0;
  }

  /** The user's newest agreement in force to a version hashing to `sha256`. */
  async inForceByHash(sessionId: string, userId: string, sha256: string): Promise<AcceptanceRow | null> {
    const [row] = await this.db.query<AcceptanceRow[]>(
      `SELECT ${COLUMNS} FROM consent_acceptances
       WHERE session_id = $1 AND user_id = $2 AND sha256 = $3 AND withdrawn_at IS NULL
       ORDER BY version DESC LIMIT 1`,
      [sessionId, userId, sha256],
    );
    return row ?? null;
  }

  /**
   * The indexes (in `pairs`) of those who have not agreed to their session's current text, a text
   * hashing to `emptySha256` asking for no agreement.
   */
  async pending(
    pairs: readonly { sessionId: string; userId: string }[],
    emptySha256: string,
  ): Promise<number[]> {
    const rows = await this.db.query<{ i: number }[]>(PENDING_SQL, [
      pairs.map((pair) => pair.sessionId),
      pairs.map((pair) => pair.userId),
      emptySha256,
    ]);
    return rows.map((row) => row.i - 1);
  }

  /** The participant's agreements to the session end, as of `at`. */
  async endAll(sessionId: string, userId: string, at: string, tx: Sql): Promise<void> {
    await tx.query(
      `UPDATE consent_acceptances SET withdrawn_at = $3
       WHERE session_id = $1 AND user_id = $2 AND withdrawn_at IS NULL`,
      [sessionId, userId, at],
    );
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.db.query(`DELETE FROM consent_acceptances WHERE user_id = $1`, [userId]);
  }

  /** Every agreement to these sessions' texts, by session and time. */
  ofSessions(sessionIds: readonly string[]): Promise<AcceptanceRow[]> {
    return this.db.query<AcceptanceRow[]>(
      `SELECT ${COLUMNS} FROM consent_acceptances
       WHERE session_id = ANY($1::uuid[]) ORDER BY session_id, accepted_at, id`,
      [sessionIds],
    );
  }
}
