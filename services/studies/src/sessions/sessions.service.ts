import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  GROUP_ACCESS_TEXTS,
  InternalClient,
  PG_ERRORS,
  SESSION_ACCESS_TEXTS,
  badRequest,
  conflict,
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
  completionUrlFor,
  internalRoutes,
  type ParsedRequestOf,
  type ParticipantSession,
  type SessionLifecycleChange,
  type Scope,
  type Session,
  type SessionAccess,
  type SessionInfo,
} from '@uis/proto';
import { requireOwnEmail } from '../caller-email';
import { nextDefaultTitle } from '../default-title';
import { SessionDataDeletion } from '../deletion/session-data-deletion.service';
import { GroupsService } from '../groups/groups.service';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { InvitationSender } from '../participation/invitation-sender';
import { SessionParticipantsRepository } from '../participation/session-participants.repository';
import { STUDIES_CONFIG, type StudiesConfig } from '../studies.config';
import { sessionRole } from './session-role';
import {
  SessionsRepository,
  type MembershipRow,
  type OwnedSessionRow,
  type SessionChanges,
  type SessionRow,
} from './sessions.repository';
import { sourceProblem } from './stream-source';

const SESSION_TEXTS = {
  reopenLive: 'This session has ended: reopen it from its live page, where the playback log records it.',
} as const;

const toScope = (stored: string[] | null): Scope => stored ?? EVERYONE;
const toStoredScope = (scope: Scope): string[] | null => (scope === EVERYONE ? null : scope);

const toSessionInfo = (s: SessionRow): SessionInfo => ({
  title: s.title,
  scope: toScope(s.scope),
  type: s.type,
  track: s.track,
  source: s.source,
  completionUrl: s.completionUrl,
  state: s.state,
});
const toSession = (s: SessionRow): Session => ({ session_id: s.id, ...toSessionInfo(s) });

/** Sessions: who may see and change them, type changes, and the access answer other services ask. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly groups: GroupsService,
    private readonly sessionData: SessionDataDeletion,
    private readonly internal: InternalClient,
    private readonly live: LiveAccessNotifier,
    private readonly participants: SessionParticipantsRepository,
    private readonly invitations: InvitationSender,
    @Inject(STUDIES_CONFIG) private readonly config: StudiesConfig,
  ) {}

  async list(caller: AuthUser, groupId: string): Promise<Session[]> {
    await this.groups.requireOwned(caller, groupId);
    return (await this.sessions.listInGroup(groupId)).map(toSession);
  }

  async create(caller: AuthUser, input: ParsedRequestOf<'createSession'>): Promise<Session> {
    requireOwnEmail(caller, input.email, 'You can only create sessions for yourself.');
    await this.groups.requireOwned(caller, input.groupId);
    const title = await this.nextDefaultTitle(input.groupId);
    const session = {
      groupId: input.groupId,
      title,
      type: DEFAULT_SESSION_TYPE,
      scope: this.config.DEFAULT_SESSION_SCOPE === 'everyone' ? null : [],
      track: '',
      source: '',
      completionUrl: null,
    };
    try {
      return toSession(await this.sessions.create(session));
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
    const session = await this.sessions.findWithOwner(sessionId);
    if (!session) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    // Studies' own answer has no consentPending: the consent page itself needs the session's info.
    const { role } = memberAccess(this.accessTo(session, caller));
    const info = toSessionInfo(session);
    if (role === 'owner') return { info, role };
    const scope = info.scope === EVERYONE ? info.scope : [caller.email];
    // Their own completion URL: the panel ids their join link brought fill its placeholders.
    const completionUrl =
      info.completionUrl && completionUrlFor(info.completionUrl, await this.panelIdsOf(sessionId, caller));
    return { info: { ...info, scope, completionUrl }, role };
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
    if (edit.state === 'live' && session.state === 'ended') throw conflict(SESSION_TEXTS.reopenLive);
    if (typeChanges && session.type === 'video') await this.removeVideo(session.id);

    const changes: SessionChanges = {};
    if (edit.title !== undefined) changes.title = edit.title;
    if (edit.scope !== undefined) changes.scope = toStoredScope(edit.scope);
    if (edit.track !== undefined) changes.track = edit.track;
    if (edit.completionUrl !== undefined) changes.completionUrl = edit.completionUrl;
    if (typeChanges) changes.type = type;
    if (source !== session.source) changes.source = source;
    const opens = edit.state === 'live' && session.state === 'not_started';
    if (Object.keys(changes).length === 0 && !opens) return;
    if (Object.keys(changes).length > 0) {
      const affected = await this.sessions.update(session.id, changes);
      if (!affected) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    }
    // Opened without the live page: realtime tells the participants waiting on it.
    if (opens && (await this.sessions.changeState(session.id, 'start'))?.changed)
      await this.live.changed([session.id], false);
    // Who may be in the session, or in its call, may have changed: live connections are told now.
    if (changes.scope !== undefined || changes.type !== undefined)
      await this.live.changed([session.id], false);
    if (edit.scope !== undefined) {
      // People the scope names now are invited by mail; people it dropped leave the list.
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
    await this.sessions.delete(sessionId);
    await this.live.changed([sessionId], true);
  }

  /** Sessions whose scope holds the e-mail or is Everyone, oldest first. */
  async participantSessions(caller: AuthUser, email: string | undefined): Promise<ParticipantSession[]> {
    requireOwnEmail(caller, email, 'You can only list your own sessions.');
    const rows = await this.sessions.listOpenTo(caller.email);
    return rows.map((s) => ({ session_id: s.id, type: s.type, title: s.title, deleteDisabled: true }));
  }

  /**
   * Realtime's start (the researcher opened the live page), end and reopen, after it checked the
   * owner. Realtime tells its own sockets; signal hears of it as of any access change.
   */
  async changeState(sessionId: string, change: SessionLifecycleChange) {
    const moved = await this.sessions.changeState(sessionId, change);
    if (!moved) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    if (moved.changed) await this.live.changed([sessionId], false, { skip: 'realtime' });
    return moved;
  }

  /** What other services ask before they let a user read or change a session's data. */
  async access(sessionId: string, user: { id: string; email: string }): Promise<SessionAccess> {
    const [membership] = await this.sessions.memberships([sessionId]);
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
    const byId = new Map((await this.sessions.memberships(ids)).map((row) => [row.id, row]));
    return checks.map(({ sessionId, user }) =>
      this.accessTo(byId.get(sessionId.toLowerCase()) ?? null, user),
    );
  }

  /** A user's access to a session (read already), judged by kit's ownerAccess/memberAccess as everywhere. */
  private accessTo(session: MembershipRow | null, user: { id: string; email: string }): SessionAccess {
    if (!session) return { role: 'none', sessionType: null };
    return { role: sessionRole(session, user), sessionType: session.type, state: session.state };
  }

  /** Account deletion: the e-mail leaves every scope that names it (idempotent). */
  async removeFromScopes(email: string): Promise<void> {
    await this.sessions.removeFromEveryScope(email);
  }

  /** A session's scope (null: Everyone), or undefined when there is no such session. */
  scopeOf(sessionId: string): Promise<string[] | null | undefined> {
    return this.sessions.scopeOf(sessionId);
  }

  private async panelIdsOf(sessionId: string, caller: AuthUser): Promise<Record<string, string>> {
    return (await this.participants.find(sessionId, caller.email))?.panelIds ?? {};
  }

  /** The session, if the caller owns it: 404 when there is no such session, 403 when it is another's. */
  async requireOwned(caller: AuthUser, sessionId: string): Promise<OwnedSessionRow> {
    const session = await this.sessions.findWithOwner(sessionId);
    if (!session) throw notFound(SESSION_ACCESS_TEXTS.noSession);
    ownerAccess(this.accessTo(session, caller));
    return session;
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
    return nextDefaultTitle(
      DEFAULT_SESSION_TITLE,
      await this.sessions.titlesStartingWith(groupId, DEFAULT_SESSION_TITLE),
    );
  }
}
