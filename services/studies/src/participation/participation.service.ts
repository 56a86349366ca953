import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  CombinedLimiter,
  SESSION_ACCESS_TEXTS,
  conflict,
  memberAccess,
  roomAccess,
  notFound,
  tooManyRequests,
  type AuthUser,
} from '@uis/kit';
import {
  JOIN_ATTEMPTS_PER_MINUTE,
  RESEARCHER_PEOPLE_MAX,
  SCOPE_MAX_EMAILS,
  type JoinLink,
  type PanelIds,
  type SessionState,
  type SessionType,
  type RosterEntry,
  type SessionPerson,
} from '@uis/proto';
import { randomBytes } from 'node:crypto';
import { Transactions } from '../database/sql';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { STUDIES_CONFIG, type StudiesConfig } from '../studies.config';
import { InvitationSender } from './invitation-sender';
import { JoinLinksRepository, type JoinLinkRow } from './join-links.repository';
import { SessionParticipantsRepository } from './session-participants.repository';

export const PARTICIPATION_TEXTS = {
  noLink: 'This join link does not work (any more): ask the researcher for a new one.',
  full: 'This session is full: it takes no more participants through this link.',
  scopeFull: `This session already has ${SCOPE_MAX_EMAILS} participants, the most one session takes.`,
  notInScope: 'That e-mail is not in the session’s scope: add it there first.',
  tooManyJoins: 'Too many join attempts: wait a minute and try again.',
} as const;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A join link's token: 256 random bits (unguessable; the issue asks for at least 128). */
const newJoinToken = () => randomBytes(32).toString('base64url');

/** Invitations, join links and the participant list of a session. */
@Injectable()
export class ParticipationService implements OnApplicationShutdown {
  private readonly joinAttempts: CombinedLimiter<string>;

  constructor(
    private readonly transactions: Transactions,
    private readonly sessions: SessionsService,
    private readonly sessionRows: SessionsRepository,
    private readonly joinLinks: JoinLinksRepository,
    private readonly participants: SessionParticipantsRepository,
    private readonly invitations: InvitationSender,
    private readonly live: LiveAccessNotifier,
    @Inject(STUDIES_CONFIG) config: StudiesConfig,
  ) {
    this.joinAttempts = new CombinedLimiter(
      [{ name: 'user', points: JOIN_ATTEMPTS_PER_MINUTE, durationSeconds: 60, key: (userId) => userId }],
      { keyPrefix: 'uis:studies:join', redisUrl: config.REDIS_URL },
    );
  }

  async people(caller: AuthUser, sessionId: string): Promise<SessionPerson[]> {
    const session = await this.sessions.requireOwned(caller, sessionId);
    return (await this.participants.list(sessionId, session.scope)).map((row) => ({
      email: row.email,
      source: row.source,
      status: row.joinedAt ? 'joined' : 'invited',
      invitations: row.invitations,
      invitedAt: iso(row.invitedAt),
      joinedAt: iso(row.joinedAt),
      panelIds: row.panelIds,
      panelIdConflicts: row.panelIdConflicts,
    }));
  }

  async resend(caller: AuthUser, sessionId: string, email: string): Promise<void> {
    const session = await this.sessions.requireOwned(caller, sessionId);
    if (!session.scope?.includes(email)) throw notFound(PARTICIPATION_TEXTS.notInScope);
    await this.participants.scopeChanged(sessionId, [], [email]);
    await this.invitations.send(caller, session, email);
  }

  async joinLink(caller: AuthUser, sessionId: string): Promise<JoinLink | null> {
    await this.sessions.requireOwned(caller, sessionId);
    const link = await this.joinLinks.ofSession(sessionId);
    return link && this.joinLinkOf(link);
  }

  /** A new token replaces any earlier one (which stops working at once). */
  async createJoinLink(
    caller: AuthUser,
    sessionId: string,
    maxParticipants: number | null,
  ): Promise<JoinLink> {
    await this.sessions.requireOwned(caller, sessionId);
    const link = await this.joinLinks.replace({
      sessionId,
      token: newJoinToken(),
      maxParticipants,
      createdAt: new Date(),
    });
    return this.joinLinkOf(link);
  }

  async revokeJoinLink(caller: AuthUser, sessionId: string): Promise<void> {
    await this.sessions.requireOwned(caller, sessionId);
    await this.joinLinks.delete(sessionId);
  }

  /** What a join link's landing page shows: the session's title, type and state. */
  async linkInfo(token: string): Promise<{ title: string; type: SessionType; state: SessionState }> {
    const { title, type, state } = await this.linkedSession(token);
    return { title, type, state };
  }

  /** For auth's entry without an e-mail: the link's session, its researcher and its state. */
  async linkOwner(token: string): Promise<{ sessionId: string; ownerId: string; state: SessionState }> {
    const { id, ownerId, state } = await this.linkedSession(token);
    return { sessionId: id, ownerId, state };
  }

  private async linkedSession(token: string) {
    const link = await this.joinLinks.byToken(token);
    const session = link && (await this.sessionRows.findWithOwner(link.sessionId));
    if (!session) throw notFound(PARTICIPATION_TEXTS.noLink);
    return session;
  }

  /**
   * A signed-in user follows a join link: in one transaction, with the session's row locked (two
   * people joining at once cannot both take the last place), the cap is checked, the e-mail joins
   * the scope and the panel ids are kept. Every attempt counts against the user's limit, so nobody
   * tries tokens by the thousand (they are 256 random bits anyway).
   */
  async join(caller: AuthUser, token: string, panelIds: PanelIds): Promise<string> {
    if (await this.joinAttempts.consume(caller.id)) throw tooManyRequests(PARTICIPATION_TEXTS.tooManyJoins);
    const { sessionId, scopeChanged } = await this.transactions.run(async (tx) => {
      const link = await this.joinLinks.byToken(token, tx);
      if (!link) throw notFound(PARTICIPATION_TEXTS.noLink);
      const session = await this.sessionRows.lockWithOwner(link.sessionId, tx);
      if (!session) throw notFound(SESSION_ACCESS_TEXTS.noSession);
      if (session.ownerId === caller.id) return { sessionId: session.id, scopeChanged: false };
      // Closed: the link lets nobody in until the researcher reopens the session.
      roomAccess({ role: 'participant', sessionType: session.type, state: session.state });
      const row = await this.participants.find(session.id, caller.email, tx);
      const inScope = session.scope === null ? row !== null : session.scope.includes(caller.email);
      if (!inScope && link.maxParticipants !== null) {
        const joined = await this.participants.joinedByLink(session.id, tx);
        if (joined >= link.maxParticipants) throw conflict(PARTICIPATION_TEXTS.full);
      }
      const addToScope = session.scope !== null && !session.scope.includes(caller.email);
      if (addToScope) {
        if (session.scope!.length >= SCOPE_MAX_EMAILS) throw conflict(PARTICIPATION_TEXTS.scopeFull);
        await this.sessionRows.addToScope(session.id, caller.email, tx);
      }
      await this.participants.joined(
        session.id,
        caller,
        { source: inScope ? 'scope' : 'link', panelIds },
        tx,
      );
      return { sessionId: session.id, scopeChanged: addToScope };
    });
    // The new participant's live connection (if one is already open) must be let in now.
    if (scopeChanged) await this.live.changed([sessionId], false);
    return sessionId;
  }

  /**
   * The caller takes part in the session (they confirmed on its page): the researcher's People list
   * shows them as joined from then on. The owner: nothing to record.
   */
  async enter(caller: AuthUser, sessionId: string): Promise<void> {
    const { role } = roomAccess(await this.sessions.access(sessionId, caller));
    if (role === 'participant') await this.participants.joined(sessionId, caller);
  }

  /**
   * Whether the session's page must ask the caller before anything of theirs reaches the researcher:
   * a participant of a session scoped to Everyone (anyone signed in may open it, from any link) who
   * has not entered it yet. Someone the scope names was named by the researcher already.
   */
  async mustConfirm(caller: AuthUser, sessionId: string): Promise<boolean> {
    const { role } = memberAccess(await this.sessions.access(sessionId, caller));
    if (role !== 'participant' || (await this.sessions.scopeOf(sessionId)) !== null) return false;
    return !(await this.participants.find(sessionId, caller.email))?.joinedAt;
  }

  /** Whom the participant directory shows the researcher `userId`: the people of their own sessions. */
  peopleOf(userId: string): Promise<string[]> {
    return this.participants.namedBy(userId, RESEARCHER_PEOPLE_MAX);
  }

  async roster(sessionId: string): Promise<RosterEntry[]> {
    const scope = await this.sessions.scopeOf(sessionId);
    return scope === undefined ? [] : this.participants.roster(sessionId, scope);
  }

  /** The join limiter's Redis connection. */
  onApplicationShutdown(): void {
    this.joinAttempts.close();
  }

  private async joinLinkOf(link: JoinLinkRow): Promise<JoinLink> {
    return {
      token: link.token,
      maxParticipants: link.maxParticipants,
      joined: await this.participants.joinedByLink(link.sessionId),
      createdAt: link.createdAt.toISOString(),
    };
  }
}
