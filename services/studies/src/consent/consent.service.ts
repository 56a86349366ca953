import { Injectable } from '@nestjs/common';
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
import { Transactions, type Sql } from '../database/sql';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { ConsentAcceptancesRepository, type AcceptanceRow } from './consent-acceptances.repository';
import { SessionConsentsRepository, type ConsentVersionRow } from './session-consents.repository';

export const sha256Of = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The hash of the empty text: a current version with it asks for no consent (read without the text). */
const NO_CONSENT_SHA256 = sha256Of('');

const toVersion = (row: ConsentVersionRow): ConsentVersion => ({
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
 * studies applies the consent rules. Who may do what is asked of SessionsService, as every route of
 * studies asks it.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly versions: SessionConsentsRepository,
    private readonly acceptances: ConsentAcceptancesRepository,
    private readonly sessionRows: SessionsRepository,
    private readonly transactions: Transactions,
    private readonly sessions: SessionsService,
    private readonly live: LiveAccessNotifier,
  ) {}

  /** The owner's view: the current version and every agreement, newest first. */
  async forOwner(caller: AuthUser, sessionId: string): Promise<AnswerOf<'getSessionConsent'>> {
    ownerAccess(await this.sessions.access(sessionId, caller));
    const current = await this.versions.current(sessionId);
    const acceptances = await this.acceptances.ofSession(sessionId);
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
    const saved = await this.transactions.run(async (tx: Sql) => {
      if (!(await this.sessionRows.lockKey(sessionId, tx))) throw notFound(SESSION_ACCESS_TEXTS.noSession);
      const current = await this.versions.current(sessionId, tx);
      if ((current?.text ?? '') === text) return { consent: current, changed: false };
      const version = (current?.version ?? 0) + 1;
      const created = await this.versions.create(sessionId, { version, text, sha256: sha256Of(text) }, tx);
      return { consent: created, changed: true };
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
    const current = await this.versions.current(sessionId);
    if (!current || current.text === '') return { consent: null, required: false, acceptedAt: null };
    if (role === 'owner') return { consent: toVersion(current), required: false, acceptedAt: null };
    const acceptedAt = await this.acceptances.acceptedAt(sessionId, caller.id, current.version);
    return {
      consent: toVersion(current),
      required: !acceptedAt,
      acceptedAt: acceptedAt?.toISOString() ?? null,
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
    const inserted = await this.acceptances.acceptCurrent(sessionId, caller, sha256, NO_CONSENT_SHA256);
    const current = await this.versions.current(sessionId);
    if (!current || current.text === '') throw conflict(CONSENT_TEXTS.noConsent);
    const acceptance = await this.acceptances.inForceByHash(sessionId, caller.id, sha256);
    // Agreed now or before, but to a version that is no longer the current one: it changed meanwhile.
    if (!acceptance || acceptance.version !== current.version) throw conflict(CONSENT_TEXTS.changed);
    if (inserted) await this.live.changed([sessionId], false);
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
    const unagreed = await this.acceptances.pending(
      participants.map((index) => checks[index]!),
      NO_CONSENT_SHA256,
    );
    const pending = new Set(unagreed.map((i) => participants[i]));
    return answers.map((answer, index) =>
      pending.has(index) ? { ...answer, consentPending: true } : answer,
    );
  }

  /** A withdrawal ends the participant's agreements to the session, as of its time (in `tx`). */
  async endAgreements(tx: Sql, sessionId: string, userId: string, at: string): Promise<void> {
    await this.acceptances.endAll(sessionId, userId, at, tx);
  }

  /** Account deletion: the user's agreements go (they hold their name and e-mail). */
  async forgetUser(userId: string): Promise<void> {
    await this.acceptances.deleteOfUser(userId);
  }

  /** Records' study export: every version and every agreement of these sessions. */
  async exportOf(sessionIds: readonly string[]): Promise<InternalAnswerOf<'studiesConsentExport'>> {
    const texts = await this.versions.ofSessions(sessionIds);
    const acceptances = await this.acceptances.ofSessions(sessionIds);
    return {
      texts: texts.map((row) => ({ sessionId: row.sessionId, ...toVersion(row) })),
      acceptances: acceptances.map((row) => ({ sessionId: row.sessionId, ...toAcceptance(row) })),
    };
  }
}
