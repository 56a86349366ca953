import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  AppError,
  GROUP_ACCESS_TEXTS,
  InternalClient,
  PG_ERRORS,
  SESSION_ACCESS_TEXTS,
  badRequest,
  memberAccess,
  notFound,
  ownerAccess,
  pgErrorCode,
  unavailable,
  type AuthUser,
} from '@uis/kit';
import {
  DEFAULT_SESSION_TITLE,
  DEFAULT_SESSION_TYPE,
  EVERYONE,
  internalRoutes,
  type ParsedRequestOf,
  type ParticipantSession,
  type Scope,
  type Session,
  type SessionAccess,
  type SessionInfo,
} from '@uis/proto';
import { Like, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { requireOwnEmail } from '../caller-email';
import { nextDefaultTitle } from '../default-title';
import { SessionDataDeletion } from '../deletion/session-data-deletion.service';
import { GroupsService } from '../groups/groups.service';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { InvitationSender } from '../participation/invitation-sender';
import { ParticipantsStore } from '../participation/participants.store';
import { sessionRole } from './session-role';
import { SessionEntity } from './session.entity';
import { sourceProblem } from './stream-source';

const toScope = (stored: string[] | null): Scope => stored ?? EVERYONE;
const toStoredScope = (scope: Scope): string[] | null => (scope === EVERYONE ? null : scope);

const toSessionInfo = (s: SessionEntity): SessionInfo => ({
  title: s.title,
  scope: toScope(s.scope),
  type: s.type,
  track: s.track,
  source: s.source,
  completionUrl: s.completionUrl,
});
const toSession = (s: SessionEntity): Session => ({ session_id: s.id, ...toSessionInfo(s) });

type SessionWithGroup = SessionEntity & { group: NonNullable<SessionEntity['group']> };

/** What an access check reads of a session: its type, its scope and its group's owner. */
interface Membership {
  id: string;
  type: SessionEntity['type'];
  scope: string[] | null;
  ownerId: string;
}

const membershipOf = (s: SessionWithGroup): Membership => ({
  id: s.id,
  type: s.type,
  scope: s.scope,
  ownerId: s.group.ownerId,
});

/**
 * The memberships of the sessions of `$1` (an unknown id has no row). One statement, rows as pg
 * gives them: every REST read of records and content, and realtime's batched joins, ask this, so no
 * entity is built for it (TypeORM's findOne with a relation sent two statements and hydrated both rows).
 */
const MEMBERSHIP_SQL = `
  SELECT s.id, s.type, s.scope, g.owner_id AS "ownerId"
  FROM sessions s JOIN groups g ON g.id = s.group_id
  WHERE s.id = ANY($1::uuid[])`;

/** Sessions: the one place studies reads and writes the sessions table. */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly groups: GroupsService,
    private readonly sessionData: SessionDataDeletion,
    private readonly internal: InternalClient,
    private readonly live: LiveAccessNotifier,
    private readonly participants: ParticipantsStore,
    private readonly invitations: InvitationSender,
  ) {}

  async list(caller: AuthUser, groupId: string): Promise<Session[]> {
    await this.groups.requireOwned(caller, groupId);
    const rows = await this.sessions.find({ where: { groupId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toSession);
  }

  async create(caller: AuthUser, input: ParsedRequestOf<'createSession'>): Promise<Session> {
    requireOwnEmail(caller, input.email, 'You can only create sessions for yourself.');
    await this.groups.requireOwned(caller, input.groupId);
    const title = await this.nextDefaultTitle(input.groupId);
    const session = this.sessions.create({
      groupId: input.groupId,
      title,
      type: DEFAULT_SESSION_TYPE,
      scope: null,
      track: '',
      source: '',
      completionUrl: null,
    });
    try {
      return toSession(await this.sessions.save(session));
    } catch (error) {
      // The group was deleted between the check and the insert.
      if (pgErrorCode(error) === PG_ERRORS.foreignKeyViolation) throw notFound(GROUP_ACCESS_TEXTS.noGroup);
      throw error;
    }
  }

  /**
   * For the owner everything; a participant sees the scope only as Everyone or their own e-mail.
   * A read: opening a session records nothing (a participant takes part by enterSession).
   */
  async info(
    caller: AuthUser,
    sessionId: string,
  ): Promise<{ info: SessionInfo; role: SessionAccess['role'] }> {
    const session = await this.find(sessionId);
    if (!session) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    // Studies' own answer has no consentPending: the consent page itself needs the session's info.
    const { role } = memberAccess(this.accessTo(membershipOf(session), caller));
    const info = toSessionInfo(session);
    if (role === 'owner') return { info, role };
    return { info: info.scope === EVERYONE ? info : { ...info, scope: [caller.email] }, role };
  }

  /**
   * Spec section 4: a type change clears the source (a stream's URL means nothing to a video or a
   * chat, and a video's file is removed), unless the same edit sends one; away from video, content
   * removes the uploaded video before the new type is saved, so a failure there changes nothing.
   */
  async edit(caller: AuthUser, edit: ParsedRequestOf<'editSessionInfo'>): Promise<void> {
    const session = await this.requireOwned(caller, edit.sessionId);
    const typeChanges = edit.type !== undefined && edit.type !== session.type;
    const type = edit.type ?? session.type;
    const source = edit.source ?? (typeChanges ? '' : session.source);
    const touchesSource = edit.type !== undefined || edit.source !== undefined;
    if (touchesSource && source !== '') {
      const problem = sourceProblem(type, source);
      if (problem) throw badRequest(`source: ${problem}`, [{ path: 'source', message: problem }]);
    }
    if (typeChanges && session.type === 'video') await this.removeVideo(session.id);

    const changes: QueryDeepPartialEntity<SessionEntity> = {};
    if (edit.title !== undefined) changes.title = edit.title;
    if (edit.scope !== undefined) changes.scope = toStoredScope(edit.scope);
    if (edit.track !== undefined) changes.track = edit.track;
    if (edit.completionUrl !== undefined) changes.completionUrl = edit.completionUrl;
    if (typeChanges) changes.type = type;
    if (source !== session.source) changes.source = source;
    if (Object.keys(changes).length === 0) return;
    const result = await this.sessions.update({ id: session.id }, changes);
    if (!result.affected) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    // Who may be in the session, or in its call, may have changed: live connections are told now.
    if (changes.scope !== undefined || changes.type !== undefined)
      await this.live.changed([session.id], false);
    if (edit.scope !== undefined) {
      // People the scope names now are invited by mail (issue 14); people it dropped leave the list.
      const added = await this.participants.scopeChanged(
        session.id,
        session.scope,
        toStoredScope(edit.scope),
      );
      await this.invitations.sendAll(caller, { id: session.id, title: edit.title ?? session.title }, added);
    }
  }

  async delete(caller: AuthUser, sessionId: string): Promise<void> {
    await this.requireOwned(caller, sessionId);
    await this.sessionData.deleteDataOf([sessionId]);
    await this.sessions.delete({ id: sessionId });
    await this.live.changed([sessionId], true);
  }

  /** Sessions whose scope holds the e-mail or is Everyone, oldest first. */
  async participantSessions(caller: AuthUser, email: string | undefined): Promise<ParticipantSession[]> {
    requireOwnEmail(caller, email, 'You can only list your own sessions.');
    const rows = await this.sessions
      .createQueryBuilder('s')
      .select(['s.id', 's.type', 's.title'])
      .where('s.scope IS NULL OR s.scope @> CAST(:member AS jsonb)', {
        member: JSON.stringify([caller.email]),
      })
      .orderBy('s.createdAt', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .getMany();
    return rows.map((s) => ({ session_id: s.id, type: s.type, title: s.title, deleteDisabled: true }));
  }

  /** Realtime's sessionEnded: the session's completion URL (null when unset or no such session). */
  async completionUrl(sessionId: string): Promise<string | null> {
    const session = await this.sessions.findOne({
      select: { id: true, completionUrl: true },
      where: { id: sessionId },
    });
    return session?.completionUrl ?? null;
  }

  /** What other services ask before they let a user read or change a session's data. */
  async access(sessionId: string, user: { id: string; email: string }): Promise<SessionAccess> {
    const [membership] = await this.memberships([sessionId]);
    return this.accessTo(membership ?? null, user);
  }

  /**
   * `access` for many (session, user) pairs at once, in their order: realtime's batched checks. One
   * query reads every distinct session, so a call of hundreds costs about what one check does.
   */
  async accessMany(
    checks: readonly { sessionId: string; user: { id: string; email: string } }[],
  ): Promise<SessionAccess[]> {
    // Postgres answers uuids in lower case, whatever case they were asked in (as findOne matches).
    const ids = [...new Set(checks.map((check) => check.sessionId.toLowerCase()))];
    const byId = new Map((await this.memberships(ids)).map((row) => [row.id, row]));
    return checks.map(({ sessionId, user }) =>
      this.accessTo(byId.get(sessionId.toLowerCase()) ?? null, user),
    );
  }

  /** A user's access to a session (read already), judged by kit's ownerAccess/memberAccess as everywhere. */
  private accessTo(session: Membership | null, user: { id: string; email: string }): SessionAccess {
    if (!session) return { role: 'none', sessionType: null };
    return { role: sessionRole(session, user), sessionType: session.type };
  }

  private memberships(ids: readonly string[]): Promise<Membership[]> {
    return this.sessions.query<Membership[]>(MEMBERSHIP_SQL, [ids]);
  }

  /** Account deletion: the e-mail leaves every scope that names it (idempotent). */
  async removeFromScopes(email: string): Promise<void> {
    await this.sessions
      .createQueryBuilder()
      .update()
      .set({ scope: () => 'scope - CAST(:email AS text)' })
      .where('scope @> CAST(:member AS jsonb)', { member: JSON.stringify([email]) })
      .setParameter('email', email)
      .execute();
  }

  /** A session's scope (null: Everyone), or undefined when there is no such session. */
  async scopeOf(sessionId: string): Promise<string[] | null | undefined> {
    const session = await this.sessions.findOne({
      select: { id: true, scope: true },
      where: { id: sessionId },
    });
    return session ? session.scope : undefined;
  }

  /** The session, if the caller owns it: 404 when there is no such session, 403 when it is another's. */
  async requireOwned(caller: AuthUser, sessionId: string): Promise<SessionWithGroup> {
    const session = await this.find(sessionId);
    if (!session) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    ownerAccess(this.accessTo(membershipOf(session), caller));
    return session;
  }

  private find(sessionId: string): Promise<SessionWithGroup | null> {
    return this.sessions.findOne({
      where: { id: sessionId },
      relations: { group: true },
    }) as Promise<SessionWithGroup | null>;
  }

  private async removeVideo(sessionId: string): Promise<void> {
    try {
      await this.internal.call(internalRoutes.contentVideoDelete, { sessionId });
    } catch (error) {
      const reason = error instanceof AppError ? error.message : String(error);
      throw unavailable(
        `The session was not changed: its video could not be removed (${reason}). Please try again.`,
      );
    }
  }

  private async nextDefaultTitle(groupId: string): Promise<string> {
    const taken = await this.sessions.find({
      select: { title: true },
      where: { groupId, title: Like(`${DEFAULT_SESSION_TITLE}%`) },
    });
    return nextDefaultTitle(
      DEFAULT_SESSION_TITLE,
      taken.map((row) => row.title),
    );
  }
}
