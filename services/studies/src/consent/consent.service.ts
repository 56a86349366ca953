import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  conflict,
  forbidden,
  memberAccess,
  notFound,
  ownerAccess,
  SESSION_ACCESS_TEXTS,
  type AuthUser,
} from '@uis/kit';
import {
  CONSENT_TEXTS,
  type AnswerOf,
  type ConsentAcceptance,
  type ConsentVersion,
  type InternalAnswerOf,
  type SessionAccess,
} from '@uis/proto';
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionsService } from '../sessions/sessions.service';

export const sha256Of = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The hash of the empty text: a current version with it asks for no consent (read without the text). */
const NO_CONSENT_SHA256 = sha256Of('');

interface VersionRow {
  version: number;
  text: string;
  sha256: string;
  createdAt: Date;
}

interface AcceptanceRow {
  sessionId: string;
  userId: string;
  name: string;
  email: string;
  version: number;
  sha256: string;
  acceptedAt: Date;
  withdrawnAt: Date | null;
}

const VERSION_COLUMNS = `version, text, sha256, created_at AS "createdAt"`;
const ACCEPTANCE_COLUMNS = `session_id AS "sessionId", user_id AS "userId", name, email, version, sha256,
  accepted_at AS "acceptedAt", withdrawn_at AS "withdrawnAt"`;

const CURRENT_SQL = `
  SELECT ${VERSION_COLUMNS} FROM session_consents WHERE session_id = $1 ORDER BY version DESC LIMIT 1`;

/**
 * Of the (session, user) pairs $1/$2, the ordinals (from 1) of those whose session's current consent
 * text is not empty and who have no agreement in force to it. One statement for a whole batch of
 * access checks; a session without a consent text costs one index probe.
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

/** Agrees to the current version when it is not empty and its hash is $5; nothing when already agreed. */
const ACCEPT_SQL = `
  INSERT INTO consent_acceptances (session_id, version, user_id, email, name, sha256)
  SELECT c.session_id, c.version, $2, $3, $4, c.sha256
  FROM (SELECT session_id, version, sha256 FROM session_consents WHERE session_id = $1
        ORDER BY version DESC LIMIT 1) c
  WHERE c.sha256 = $5 AND c.sha256 <> $6
  ON CONFLICT (session_id, user_id, version) WHERE withdrawn_at IS NULL DO NOTHING
  RETURNING id`;

const toVersion = (row: VersionRow): ConsentVersion => ({
  version: row.version,
  text: row.text,
  sha256: row.sha256,
  createdAt: row.createdAt.toISOString(),
});

const toAcceptance = ({ sessionId: _, ...row }: AcceptanceRow): ConsentAcceptance => ({
  ...row,
  acceptedAt: row.acceptedAt.toISOString(),
  withdrawnAt: row.withdrawnAt?.toISOString() ?? null,
});

/**
 * A session's consent text (every version kept) and its participants' agreements: the one place
 * studies reads and writes the consent tables. Who may do what is asked of SessionsService, as every
 * route of studies asks it.
 */
@Injectable()
export class ConsentService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsService,
    private readonly live: LiveAccessNotifier,
  ) {}

  /** The owner's view: the current version and every agreement, newest first. */
  async forOwner(caller: AuthUser, sessionId: string): Promise<AnswerOf<'getSessionConsent'>> {
    ownerAccess(await this.sessions.access(sessionId, caller));
    const [current] = await this.db.query<VersionRow[]>(CURRENT_SQL, [sessionId]);
    const acceptances = await this.db.query<AcceptanceRow[]>(
      `SELECT ${ACCEPTANCE_COLUMNS} FROM consent_acceptances WHERE session_id = $1
       ORDER BY accepted_at DESC, id`,
      [sessionId],
    );
    return { consent: current ? toVersion(current) : null, acceptances: acceptances.map(toAcceptance) };
  }

  /**
   * A new version when the text differs from the current one (the first empty text is no version at
   * all). The session's row is locked meanwhile, so two saves cannot take the same version number and
   * a session deleted meanwhile is a 404. Live connections are told of a new version at once: its
   * participants must agree to it before they go on.
   */
  async setText(caller: AuthUser, sessionId: string, text: string): Promise<AnswerOf<'setSessionConsent'>> {
    ownerAccess(await this.sessions.access(sessionId, caller));
    const saved = await this.db.transaction(async (tx) => {
      const locked = await tx.query<unknown[]>(`SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE`, [
        sessionId,
      ]);
      if (locked.length === 0) throw notFound(SESSION_ACCESS_TEXTS.noSession);
      const [current] = await tx.query<VersionRow[]>(CURRENT_SQL, [sessionId]);
      if ((current?.text ?? '') === text) return { consent: current ?? null, changed: false };
      const [created] = await tx.query<VersionRow[]>(
        `INSERT INTO session_consents (session_id, version, text, sha256) VALUES ($1, $2, $3, $4)
         RETURNING ${VERSION_COLUMNS}`,
        [sessionId, (current?.version ?? 0) + 1, text, sha256Of(text)],
      );
      return { consent: created!, changed: true };
    });
    if (saved.changed) await this.live.changed([sessionId], false);
    return { consent: saved.consent ? toVersion(saved.consent) : null, changed: saved.changed };
  }

  /** The caller's own view (owner or participant): the text, and whether they must still agree. */
  async forMember(
    caller: AuthUser,
    sessionId: string,
  ): Promise<Omit<AnswerOf<'getMyConsent'>, 'mustConfirm'>> {
    const { role } = memberAccess(await this.sessions.access(sessionId, caller));
    const [current] = await this.db.query<VersionRow[]>(CURRENT_SQL, [sessionId]);
    if (!current || current.text === '') return { consent: null, required: false, acceptedAt: null };
    if (role === 'owner') return { consent: toVersion(current), required: false, acceptedAt: null };
    const [accepted] = await this.db.query<{ acceptedAt: Date }[]>(
      `SELECT accepted_at AS "acceptedAt" FROM consent_acceptances
       WHERE session_id = $1 AND user_id = $2 AND version = $3 AND withdrawn_at IS NULL`,
      [sessionId, caller.id, current.version],
    );
    return {
      consent: toVersion(current),
      required: !accepted,
      acceptedAt: accepted?.acceptedAt.toISOString() ?? null,
    };
  }

  /**
   * A participant agrees to the current version, named by its hash: a text changed since they read
   * it is a 409, so nobody agrees to words they did not see. Agreeing twice keeps the first agreement.
   * Realtime forgets its cached answer, so their live connection is let in at once.
   */
  async accept(caller: AuthUser, sessionId: string, sha256: string): Promise<AnswerOf<'acceptConsent'>> {
    const { role } = memberAccess(await this.sessions.access(sessionId, caller));
    if (role === 'owner') throw forbidden(CONSENT_TEXTS.ownerAgrees);
    const inserted = await this.db.query<unknown[]>(ACCEPT_SQL, [
      sessionId,
      caller.id,
      caller.email,
      caller.name,
      sha256,
      NO_CONSENT_SHA256,
    ]);
    const [current] = await this.db.query<VersionRow[]>(CURRENT_SQL, [sessionId]);
    if (!current || current.text === '') throw conflict(CONSENT_TEXTS.noConsent);
    const [acceptance] = await this.db.query<AcceptanceRow[]>(
      `SELECT ${ACCEPTANCE_COLUMNS} FROM consent_acceptances
       WHERE session_id = $1 AND user_id = $2 AND sha256 = $3 AND withdrawn_at IS NULL
       ORDER BY version DESC LIMIT 1`,
      [sessionId, caller.id, sha256],
    );
    // Agreed now or before, but to a version that is no longer the current one: it changed meanwhile.
    if (!acceptance || acceptance.version !== current.version) throw conflict(CONSENT_TEXTS.changed);
    if (inserted.length > 0) await this.live.changed([sessionId], false);
    return {
      acceptance: {
        version: acceptance.version,
        sha256: acceptance.sha256,
        acceptedAt: acceptance.acceptedAt.toISOString(),
      },
    };
  }

  /**
   * The access answers of `checks` (in their order), a participant's marked consentPending when they
   * have not agreed to the session's current consent text (what realtime and records refuse); the
   * others as they were, so an answer without a consent text to agree to is unchanged.
   */
  async withPending(
    checks: readonly { sessionId: string; userId: string }[],
    answers: SessionAccess[],
  ): Promise<SessionAccess[]> {
    const participants = answers.flatMap((answer, index) => (answer.role === 'participant' ? [index] : []));
    if (participants.length === 0) return answers;
    const rows = await this.db.query<{ i: number }[]>(PENDING_SQL, [
      participants.map((index) => checks[index]!.sessionId),
      participants.map((index) => checks[index]!.userId),
      NO_CONSENT_SHA256,
    ]);
    const pending = new Set(rows.map((row) => participants[row.i - 1]));
    return answers.map((answer, index) =>
      pending.has(index) ? { ...answer, consentPending: true } : answer,
    );
  }

  /** A withdrawal ends the participant's agreements to the session, as of its time (in `tx`). */
  async endAgreements(tx: EntityManager, sessionId: string, userId: string, at: string): Promise<void> {
    await tx.query(
      `UPDATE consent_acceptances SET withdrawn_at = $3
       WHERE session_id = $1 AND user_id = $2 AND withdrawn_at IS NULL`,
      [sessionId, userId, at],
    );
  }

  /** Account deletion: the user's agreements go (they hold their name and e-mail). */
  async forgetUser(userId: string): Promise<void> {
    await this.db.query(`DELETE FROM consent_acceptances WHERE user_id = $1`, [userId]);
  }

  /** Records' study export: every version and every agreement of these sessions. */
  async exportOf(sessionIds: readonly string[]): Promise<InternalAnswerOf<'studiesConsentExport'>> {
    const texts = await this.db.query<(VersionRow & { sessionId: string })[]>(
      `SELECT session_id AS "sessionId", ${VERSION_COLUMNS} FROM session_consents
       WHERE session_id = ANY($1::uuid[]) ORDER BY session_id, version`,
      [sessionIds],
    );
    const acceptances = await this.db.query<AcceptanceRow[]>(
      `SELECT ${ACCEPTANCE_COLUMNS} FROM consent_acceptances
       WHERE session_id = ANY($1::uuid[]) ORDER BY session_id, accepted_at, id`,
      [sessionIds],
    );
    return {
      texts: texts.map((row) => ({ sessionId: row.sessionId, ...toVersion(row) })),
      acceptances: acceptances.map((row) => ({ sessionId: row.sessionId, ...toAcceptance(row) })),
    };
  }
}
