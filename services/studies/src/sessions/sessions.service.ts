import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  AppError,
  InternalClient,
  badRequest,
  forbidden,
  notFound,
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
import { sessionRole } from './session-role';
import { SessionEntity } from './session.entity';
import { STREAM_SOURCE_MESSAGE, isStreamSource } from './stream-source';

const FOREIGN_KEY_VIOLATION = '23503';

const toScope = (stored: string[] | null): Scope => stored ?? EVERYONE;
const toStoredScope = (scope: Scope): string[] | null => (scope === EVERYONE ? null : scope);

const toSessionInfo = (s: SessionEntity): SessionInfo => ({
  title: s.title,
  scope: toScope(s.scope),
  type: s.type,
  track: s.track,
  source: s.source,
});
const toSession = (s: SessionEntity): Session => ({ session_id: s.id, ...toSessionInfo(s) });

type SessionWithGroup = SessionEntity & { group: NonNullable<SessionEntity['group']> };

/** Sessions: the one place studies reads and writes the sessions table. */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly groups: GroupsService,
    private readonly sessionData: SessionDataDeletion,
    private readonly internal: InternalClient,
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
    });
    try {
      return toSession(await this.sessions.save(session));
    } catch (error) {
      // The group was deleted between the check and the insert.
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw notFound('No such group.');
      throw error;
    }
  }

  /** For the owner everything; a participant sees the scope only as Everyone or their own e-mail. */
  async info(caller: AuthUser, sessionId: string): Promise<SessionInfo> {
    const session = await this.find(sessionId);
    if (!session) throw notFound('No such session.');
    const role = sessionRole({ ownerId: session.group.ownerId, scope: session.scope }, caller);
    if (role === 'none') throw forbidden('You are not part of this session.');
    const info = toSessionInfo(session);
    return role === 'owner' || info.scope === EVERYONE
      ? info
      : { ...info, scope: [caller.email.toLowerCase()] };
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
    if (type === 'stream' && touchesSource && source !== '' && !isStreamSource(source)) {
      const message = `source: ${STREAM_SOURCE_MESSAGE}`;
      throw badRequest(message, [{ path: 'source', message: STREAM_SOURCE_MESSAGE }]);
    }
    if (typeChanges && session.type === 'video') await this.removeVideo(session.id);

    const changes: QueryDeepPartialEntity<SessionEntity> = {};
    if (edit.title !== undefined) changes.title = edit.title;
    if (edit.scope !== undefined) changes.scope = toStoredScope(edit.scope);
    if (edit.track !== undefined) changes.track = edit.track;
    if (typeChanges) changes.type = type;
    if (source !== session.source) changes.source = source;
    if (Object.keys(changes).length === 0) return;
    const result = await this.sessions.update({ id: session.id }, changes);
    if (!result.affected) throw notFound('No such session.');
  }

  async delete(caller: AuthUser, sessionId: string): Promise<void> {
    await this.requireOwned(caller, sessionId);
    await this.sessionData.deleteDataOf([sessionId]);
    await this.sessions.delete({ id: sessionId });
  }

  /** Sessions whose scope holds the e-mail or is Everyone, oldest first. */
  async participantSessions(caller: AuthUser, email: string | undefined): Promise<ParticipantSession[]> {
    requireOwnEmail(caller, email, 'You can only list your own sessions.');
    const rows = await this.sessions
      .createQueryBuilder('s')
      .select(['s.id', 's.type', 's.title'])
      .where('s.scope IS NULL OR s.scope @> CAST(:member AS jsonb)', {
        member: JSON.stringify([caller.email.toLowerCase()]),
      })
      .orderBy('s.createdAt', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .getMany();
    return rows.map((s) => ({ session_id: s.id, type: s.type, title: s.title, deleteDisabled: true }));
  }

  /** What other services ask before they let a user read or change a session's data. */
  async access(sessionId: string, user: { id: string; email: string }): Promise<SessionAccess> {
    const session = await this.find(sessionId);
    if (!session) return { role: 'none', sessionType: null };
    return {
      role: sessionRole({ ownerId: session.group.ownerId, scope: session.scope }, user),
      sessionType: session.type,
    };
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

  /** The session, if the caller owns it: 404 when there is no such session, 403 when it is another's. */
  private async requireOwned(caller: AuthUser, sessionId: string): Promise<SessionWithGroup> {
    const session = await this.find(sessionId);
    if (!session) throw notFound('No such session.');
    if (session.group.ownerId !== caller.id) throw forbidden('This session belongs to another researcher.');
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
