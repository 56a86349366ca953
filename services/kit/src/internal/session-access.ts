import { HttpStatus, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  ACCESS_CHECKS_PER_CALL,
  AccessCheck,
  CONSENT_TEXTS,
  ERROR_CODES,
  internalRoutes,
  type SessionAccess,
} from '@uis/proto';
import type { z } from 'zod';
import type { AuthUser } from '../auth/access-token';
import { AppError, forbidden, notFound, validationError } from '../errors';
import { ExpiringMap } from '../expiring-map';
import { CallBatcher } from './call-batcher';
import { InternalClient } from './internal-client';

export type { SessionAccess } from '@uis/proto';

export const SESSION_ACCESS_TEXTS = {
  noSession: 'No such session.',
  ownerOnly: 'Only the researcher who owns this session can do this.',
  notMember: 'You are not part of this session.',
  ended: 'This session has ended.',
  notStarted: 'This session has not started yet.',
} as const;

/** A group's 404 and 403: studies owns groups, records exports them. */
export const GROUP_ACCESS_TEXTS = {
  noGroup: 'No such group.',
  notYourGroup: 'This group belongs to another researcher.',
} as const;

/** `access` when it is the session owner's, else the 404 / 403 to refuse with. */
export function ownerAccess(access: SessionAccess): SessionAccess {
  if (access.sessionType === null) throw notFound(SESSION_ACCESS_TEXTS.noSession);
  if (access.role !== 'owner') throw forbidden(SESSION_ACCESS_TEXTS.ownerOnly);
  return access;
}

/**
 * `access` when it is the owner's, or a participant's in the session's scope who has agreed to its
 * current consent text; else the 404, the 403, or the 403 with the code CONSENT_REQUIRED. The one
 * consent rule: every route, event and peer registration of a session's data asks this (studies'
 * consent routes themselves judge an answer that has no consentPending).
 */
export function memberAccess(access: SessionAccess): SessionAccess {
  if (access.sessionType === null) throw notFound(SESSION_ACCESS_TEXTS.noSession);
  if (access.role === 'none') throw forbidden(SESSION_ACCESS_TEXTS.notMember);
  if (access.consentPending) {
    throw new AppError(HttpStatus.FORBIDDEN, ERROR_CODES.CONSENT_REQUIRED, CONSENT_TEXTS.required);
  }
  return access;
}

/**
 * memberAccess, while the session is open: once it has ended, nothing of anyone is taken in its
 * room (a 409, SESSION_ENDED), until its researcher reopens it. Every live event asks this.
 */
export function roomAccess(access: SessionAccess): SessionAccess {
  memberAccess(access);
  if (access.state === 'ended') {
    throw new AppError(HttpStatus.CONFLICT, ERROR_CODES.SESSION_ENDED, SESSION_ACCESS_TEXTS.ended);
  }
  return access;
}

/**
 * roomAccess for a record someone adds (a message, a click): a participant's waits until the
 * session has started (a 409, SESSION_NOT_STARTED); its researcher may write before.
 */
export function writeAccess(access: SessionAccess): SessionAccess {
  roomAccess(access);
  if (access.state === 'not_started' && access.role !== 'owner') {
    throw new AppError(HttpStatus.CONFLICT, ERROR_CODES.SESSION_NOT_STARTED, SESSION_ACCESS_TEXTS.notStarted);
  }
  return access;
}

/**
 * The most JSON one batch of checks may carry: below the 100 kB body limit of the kit's JSON parser,
 * with room for the wrapper. A typical check is about 130 bytes (200 take 26 kB); only long
 * non-ASCII e-mails could reach the limit before ACCESS_CHECKS_PER_CALL does.
 */
export const ACCESS_BATCH_BODY_BUDGET = 90 * 1024;

export interface SessionAccessOptions {
  /** How long an answer is reused (0: every check asks studies). */
  cacheMs?: number;
  /**
   * Checks go through a CallBatcher to studiesAccessBatch: one call in flight at a time, the checks
   * that arrive meanwhile go together as the next one (one HTTP call and one query for all). With a
   * cache, the answers in use are also renewed ahead, together (see `renewInUse`).
   */
  batch?: boolean;
}

type Check = z.input<typeof AccessCheck>;

/** How long after its last use a cached check is still renewed ahead (batched clients only). */
export const RENEW_WHILE_USED_MS = 60_000;
const checkBytes = (check: Check) => Buffer.byteLength(JSON.stringify(check)) + 1;

/**
 * What a user may do in a session, asked of studies (which owns sessions and scopes). Services that
 * hold a session's data (content, records, realtime) call this before every read or write.
 * `cacheMs` trades freshness for fewer calls where a check is hot (realtime); REST paths use 0, so a
 * scope change applies to the very next request. `batch` is for the hot path too: under load the
 * cost per check is shared; when quiet, a check still goes at once, alone.
 */
@Injectable()
export class SessionAccessClient implements OnModuleDestroy {
  private readonly cacheMs: number;
  private readonly cache: ExpiringMap<Promise<SessionAccess>>;
  private readonly batcher: CallBatcher<Check, SessionAccess> | null;
  /** The checks asked for lately (key: session and user), renewed while in use. */
  private readonly inUse = new Map<string, { user: AuthUser; sessionId: string; lastUsed: number }>();
  private renewTimer: ReturnType<typeof setInterval> | undefined;
  /** Counts forget() calls: a renewal read before one must not bring the old answer back. */
  private forgotten = 0;
  /** Renewals not answered yet: a tick while some are skips, so a slow studies gets no pile-up. */
  private renewing = 0;

  constructor(
    private readonly internal: InternalClient,
    { cacheMs = 0, batch = false }: SessionAccessOptions = {},
  ) {
    this.cacheMs = cacheMs;
    this.cache = new ExpiringMap(cacheMs);
    this.batcher = batch
      ? new CallBatcher(
          async (items) => (await this.internal.call(internalRoutes.studiesAccessBatch, { items })).access,
          { maxItems: ACCESS_CHECKS_PER_CALL, maxBytes: ACCESS_BATCH_BODY_BUDGET, sizeOf: checkBytes },
        )
      : null;
  }

  access(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    if (this.cacheMs <= 0) return this.ask(user, sessionId);
    const key = `${sessionId}:${user.id}`;
    if (this.batcher) this.markInUse(key, user, sessionId);
    const hit = this.cache.get(key);
    // Also dedupes: a check already waiting or in flight is shared, not asked twice.
    if (hit) return hit;
    const access = this.ask(user, sessionId);
    this.cache.set(key, access);
    // A failed answer is not kept: the next event asks again. (After a forget(), the key may already
    // hold a newer check: that one stays.)
    access.catch(() => {
      if (this.cache.get(key) === access) this.cache.delete(key);
    });
    return access;
  }

  /** Forgets the cached answers about these sessions: who may be in them changed. */
  forget(sessionIds: readonly string[]): void {
    this.forgotten += 1;
    const sessions = new Set(sessionIds);
    this.cache.deleteMatching((key) => sessions.has(key.slice(0, key.indexOf(':'))));
  }

  /** Stops renewing (Nest calls it when the app closes). */
  onModuleDestroy(): void {
    clearInterval(this.renewTimer);
    this.renewTimer = undefined;
    this.inUse.clear();
  }

  /** On every event: the entry is updated in place, no allocation once a check is in use. */
  private markInUse(key: string, user: AuthUser, sessionId: string): void {
    const entry = this.inUse.get(key);
    if (entry) {
      entry.user = user;
      entry.lastUsed = Date.now();
    } else {
      this.inUse.set(key, { user, sessionId, lastUsed: Date.now() });
    }
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => this.renewInUse(), this.cacheMs / 2);
    this.renewTimer.unref?.();
  }

  /**
   * Every half cache period, the checks asked for in the last RENEW_WHILE_USED_MS are asked again,
   * together (a few batch calls for thousands of live users, instead of a call per event once an
   * answer expired), and their answers replace the cached ones. A participant who writes every ten
   * seconds so never waits for studies, while no answer used is older than `cacheMs`, as without
   * renewal (a revoked access is seen sooner, if anything). A renewal that fails leaves the old
   * answer to expire; one read before a forget() is dropped.
   */
  private renewInUse(): void {
    const now = Date.now();
    for (const [key, { lastUsed }] of this.inUse) {
      if (now - lastUsed > RENEW_WHILE_USED_MS) this.inUse.delete(key);
    }
    if (this.inUse.size === 0) {
      clearInterval(this.renewTimer);
      this.renewTimer = undefined;
      return;
    }
    if (this.renewing > 0) return;
    const generation = this.forgotten;
    for (const [key, { user, sessionId }] of this.inUse) {
      this.renewing += 1;
      this.ask(user, sessionId)
        .then(
          (answer) => {
            if (this.forgotten === generation) this.cache.set(key, Promise.resolve(answer));
          },
          () => undefined,
        )
        .finally(() => (this.renewing -= 1));
    }
  }

  /** The session's owner (the researcher whose group holds it), or 404 / 403. */
  async requireOwner(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return ownerAccess(await this.access(user, sessionId));
  }

  /** The owner or a consenting participant in the session's scope, or 404 / 403 (memberAccess). */
  async requireMember(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return memberAccess(await this.access(user, sessionId));
  }

  /** requireMember, and the session has not ended (roomAccess). */
  async requireInRoom(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return roomAccess(await this.access(user, sessionId));
  }

  /** requireInRoom, and a participant's session has started (writeAccess). */
  async requireWriter(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    return writeAccess(await this.access(user, sessionId));
  }

  private async ask(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    const check: Check = { sessionId, userId: user.id, email: user.email };
    if (!this.batcher) return this.internal.call(internalRoutes.studiesAccess, check);
    // A check studies would refuse (400) is refused here, alone, in studies' words: in a batch it
    // would refuse every other check of its call.
    const parsed = AccessCheck.safeParse(check);
    if (!parsed.success) throw validationError(parsed.error);
    return this.batcher.add(check);
  }
}
