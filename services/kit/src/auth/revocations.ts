import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { unavailable } from '../errors';
import type { Logger } from '../logger';
import { closeRedis, openRedis } from '../redis';
import type { VerifiedAccess } from './access-token';

/**
 * What can be revoked before its access tokens expire: one login (logout, a replayed refresh
 * token), or every token a user was issued before a moment (account deletion: a sign-in after a
 * failed deletion gets tokens that work again).
 */
export type Revocation = { kind: 'login'; id: string } | { kind: 'user'; id: string; issuedBefore: number };

/** How long a revocation is kept: the longest an access token can live (auth's maximum TTL). */
export const REVOCATION_TTL_MS = 24 * 60 * 60 * 1000;

/** The Redis sorted set (member = the encoded revocation, score = when it may be forgotten) and channel. */
export const REVOCATIONS_KEY = 'uis:revocations';
/** Reread from Redis this often, so a revocation published while a process was cut off still lands. */
const RELOAD_EVERY_MS = 30_000;

const encode = (revocation: Revocation): string =>
  revocation.kind === 'login' ? `login:${revocation.id}` : `user:${revocation.id}:${revocation.issuedBefore}`;

const decode = (member: string): Revocation | null => {
  const [kind, id, issuedBefore] = member.split(':');
  if (!id) return null;
  if (kind === 'login' && issuedBefore === undefined) return { kind, id };
  if (kind === 'user' && issuedBefore !== undefined && /^\d+$/.test(issuedBefore)) {
    return { kind, id, issuedBefore: Number(issuedBefore) };
  }
  return null;
};

/** What is kept per login or user: until when, and for a user which tokens. */
interface Kept {
  until: number;
  issuedBefore: number;
}

/**
 * Revoked logins and users, checked on every request, socket handshake, socket event and peer
 * registration, so a revocation takes effect at once rather than when the access token expires.
 *
 * Each process keeps a local copy, so a check costs no round trip: with REDIS_URL the copy is loaded
 * from a sorted set and kept current through a channel (and reread every 30 s, which also catches
 * what was published while this process was cut off); without it, every Revocations of the process
 * shares one in-memory copy, which is what `npm start` (all services in one process) needs.
 * Listeners (realtime, signal) hear each new revocation to end the live connections it covers.
 */
export class Revocations {
  private readonly local = new Map<string, Kept>();
  private readonly events = new EventEmitter();
  private redis?: { commands: Redis; subscriber: Redis; reload: NodeJS.Timeout };

  private static readonly processWide = new Revocations();
  /** Without Redis: the process's one shared copy. */
  static inProcess(): Revocations {
    return Revocations.processWide;
  }

  /** With Redis: a copy of this process's own, kept current from Redis until close(). */
  static shared(url: string, logger: Logger): Revocations {
    const revocations = new Revocations();
    const commands = openRedis(url, 'revocations', logger, {
      maxRetriesPerRequest: 2,
      commandTimeout: 2_000,
    });
    const subscriber = openRedis(url, 'revocations-subscriber', logger);
    const load = () =>
      revocations.load().catch((error: unknown) => {
        logger.warn({ err: (error as Error).message }, 'could not read the revocations from Redis');
      });
    subscriber.on('message', (_channel: string, member: string) => {
      const revocation = decode(member);
      if (revocation) revocations.remember(revocation, Date.now() + REVOCATION_TTL_MS);
    });
    // Subscribed first, then read: whatever is published in between is heard as a message.
    subscriber.on('ready', () => void load());
    void subscriber.subscribe(REVOCATIONS_KEY).catch(() => undefined);
    const reload = setInterval(() => void load(), RELOAD_EVERY_MS);
    reload.unref();
    revocations.redis = { commands, subscriber, reload };
    return revocations;
  }

  private constructor() {
    this.events.setMaxListeners(0);
  }

  /**
   * Revokes a login or a user everywhere. Resolves once it is stored where every process sees it;
   * rejects with a 503 when it cannot be, so the caller changes nothing and the user can retry.
   */
  async revoke(revocation: Revocation): Promise<void> {
    const until = Date.now() + REVOCATION_TTL_MS;
    if (this.redis) {
      const member = encode(revocation);
      try {
        await this.redis.commands
          .multi()
          .zadd(REVOCATIONS_KEY, until, member)
          .publish(REVOCATIONS_KEY, member)
          .exec();
      } catch {
        throw unavailable('Signing out is not possible right now; please try again in a moment.');
      }
    }
    this.remember(revocation, until);
  }

  /** Whether a token is revoked: its login, or its user since before it was issued. */
  isRevoked({ user, issuedAt }: Pick<VerifiedAccess, 'user' | 'issuedAt'>, now = Date.now()): boolean {
    const login = this.kept(`login:${user.loginId}`, now);
    if (login) return true;
    const revokedUser = this.kept(`user:${user.id}`, now);
    // Issued in the very millisecond of the revocation: ambiguous, so refused.
    return revokedUser !== undefined && issuedAt <= revokedUser.issuedBefore;
  }

  /** Hears every revocation from now on (realtime and signal end the connections it covers). */
  onRevoked(listener: (revocation: Revocation) => void): () => void {
    this.events.on('revoked', listener);
    return () => this.events.off('revoked', listener);
  }

  async close(): Promise<void> {
    if (!this.redis) return;
    const { commands, subscriber, reload } = this.redis;
    clearInterval(reload);
    await Promise.all([closeRedis(commands), closeRedis(subscriber)]);
  }

  private kept(key: string, now: number): Kept | undefined {
    const kept = this.local.get(key);
    if (kept && kept.until <= now) {
      this.local.delete(key);
      return undefined;
    }
    return kept;
  }

  /** Keeps a revocation; listeners hear it when it covers more than what was kept already. */
  private remember(revocation: Revocation, until: number): void {
    const key = `${revocation.kind}:${revocation.id}`;
    const issuedBefore = revocation.kind === 'user' ? revocation.issuedBefore : Infinity;
    const kept = this.kept(key, Date.now());
    if (kept && kept.issuedBefore >= issuedBefore) return;
    this.local.set(key, { until: Math.max(until, kept?.until ?? 0), issuedBefore });
    this.events.emit('revoked', revocation);
  }

  private async load(): Promise<void> {
    if (!this.redis) return;
    const { commands } = this.redis;
    const now = Date.now();
    await commands.zremrangebyscore(REVOCATIONS_KEY, '-inf', now);
    const entries = await commands.zrangebyscore(REVOCATIONS_KEY, now, '+inf', 'WITHSCORES');
    for (let i = 0; i + 1 < entries.length; i += 2) {
      const revocation = decode(entries[i]!);
      if (revocation) this.remember(revocation, Number(entries[i + 1]));
    }
    for (const [key, kept] of this.local) if (kept.until <= now) this.local.delete(key);
  }
}
