import { Injectable } from '@nestjs/common';
import { internalRoutes, type SessionAccess } from '@uis/proto';
import type { AuthUser } from '../auth/access-token';
import { forbidden, notFound } from '../errors';
import { ExpiringMap } from '../expiring-map';
import { InternalClient } from './internal-client';

export type { SessionAccess } from '@uis/proto';

export const SESSION_ACCESS_TEXTS = {
  noSession: 'No such session.',
  ownerOnly: 'Only the researcher who owns this session can do this.',
  notMember: 'You are not part of this session.',
} as const;

/** `access` when it is the session owner's, else the 404 / 403 to refuse with. */
export function ownerAccess(access: SessionAccess): SessionAccess {
  if (access.sessionType === null) throw notFound(SESSION_ACCESS_TEXTS.noSession);
  if (access.role !== 'owner') throw forbidden(SESSION_ACCESS_TEXTS.ownerOnly);
  return access;
}

/** `access` when it is the owner's or a participant's in the session's scope, else the 404 / 403. */
export function memberAccess(access: SessionAccess): SessionAccess {
  if (access.sessionType === null) throw notFound(SESSION_ACCESS_TEXTS.noSession);
  if (access.role === 'none') throw forbidden(SESSION_ACCESS_TEXTS.notMember);
  return access;
}

/**
 * What a user may do in a session, asked of studies (which owns sessions and scopes). Services that
 * hold a session's data (content, records, realtime) call this before every read or write.
 * `cacheMs` trades freshness for fewer calls where a check is hot (realtime); REST paths use 0, so a
 * scope change applies to the very next request.
 */
@Injectable()
export class SessionAccessClient {
  private readonly cache: ExpiringMap<Promise<SessionAccess>>;

  constructor(
    private readonly internal: InternalClient,
    private readonly cacheMs = 0,
  ) {
    this.cache = new ExpiringMap(cacheMs);
  }

  access(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    if (this.cacheMs <= 0) return this.ask(user, sessionId);
    const key = `${user.id}:${sessionId}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const access = this.ask(user, sessionId);
    this.cache.set(key, access);
    // A failed answer is not kept: the next event asks again.
    access.catch(() => this.cache.delete(key));
    return access;
  }

  /** The session's owner (the researcher whose group holds it), or 404 / 403. */
  async requireOwner(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return ownerAccess(await this.access(user, sessionId));
  }

  /** The owner or a participant in the session's scope, or 404 / 403. */
  async requireMember(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return memberAccess(await this.access(user, sessionId));
  }

  private ask(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return this.internal.call(internalRoutes.studiesAccess, {
      sessionId,
      userId: user.id,
      email: user.email,
    });
  }
}
