import { Injectable } from '@nestjs/common';
import {
  GROUP_ACCESS_TEXTS,
  InternalClient,
  SessionAccessClient,
  forbidden,
  notFound,
  type AuthUser,
} from '@uis/kit';
import { internalRoutes } from '@uis/proto';

/** One session, or every session of a group, as a request names them (proto's sessionOrGroupRequest). */
export interface SessionOrGroup {
  sessionId?: string | undefined;
  groupId?: string | undefined;
}

/**
 * The sessions a request about one session or a whole group covers, once the caller is known to own
 * them: studies owns sessions and groups, so it is asked (404 unknown, 403 another researcher's).
 */
@Injectable()
export class OwnedSessions {
  constructor(
    private readonly access: SessionAccessClient,
    private readonly internal: InternalClient,
  ) {}

  async of(user: AuthUser, { sessionId, groupId }: SessionOrGroup): Promise<readonly string[]> {
    if (sessionId !== undefined) {
      await this.access.requireOwner(user, sessionId);
      return [sessionId];
    }
    if (groupId === undefined) throw new Error('sessionOrGroupRequest lets exactly one id through');
    const group = await this.internal.call(internalRoutes.studiesGroupSessions, { groupId, userId: user.id });
    if (!group.exists) throw notFound(GROUP_ACCESS_TEXTS.noGroup);
    if (!group.owner) throw forbidden(GROUP_ACCESS_TEXTS.notYourGroup);
    return group.sessionIds;
  }
}
