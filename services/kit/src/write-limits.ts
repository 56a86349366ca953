import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from './logger';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { z } from 'zod';
import { tooManyRequests } from './errors';

/** The window LIVE_WRITE_LIMIT counts in. */
export const WRITE_WINDOW_SECONDS = 10;

/**
 * LIVE_WRITE_LIMIT, read by every service that stores chat messages and clicks (realtime's live
 * events, records' REST calls), so both count with the same numbers.
 */
export const liveWriteLimitVar = () => z.coerce.number().int().min(1).max(10_000).default(20);

export const tooManyWritesText = (seconds: number) =>
  `You are sending too fast: wait ${seconds} second${seconds === 1 ? '' : 's'} before the next message or click.`;

/** One kind of write a person may make only so often in one session. */
export interface WriteLimit {
  /** What is counted, for the log and the Redis keys ('live writes'). */
  name: string;
  points: number;
  durationSeconds: number;
  /** The refusal's message, given how long until the next write is admitted. */
  refusal: (msBeforeNext: number) => string;
}

/** Chat messages and clicks: LIVE_WRITE_LIMIT per WRITE_WINDOW_SECONDS, wherever they come in. */
export const liveWriteLimit = (points: number): WriteLimit => ({
  name: 'live writes',
  points,
  durationSeconds: WRITE_WINDOW_SECONDS,
  refusal: (ms) => tooManyWritesText(Math.max(1, Math.ceil(ms / 1000))),
});

/**
 * Writes one user may make in one session per window: well above a person's pace, far below a
 * script filling the database. In this process's memory, or shared through Redis when given one
 * (every replica counts together; while Redis is unreachable each falls back to its own memory
 * rather than failing open). A window runs from its first write: refused writes do not move it.
 */
export class SessionWriteLimiter {
  private readonly redis?: Redis;
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly limit: WriteLimit,
    private readonly logger: Logger,
    shared?: { redisUrl: string; keyPrefix: string },
  ) {
    const points = { points: limit.points, duration: limit.durationSeconds };
    if (!shared) {
      this.limiter = new RateLimiterMemory(points);
      return;
    }
    // rate-limiter-flexible wants commands to fail fast while Redis is down (its insurance takes over).
    this.redis = new Redis(shared.redisUrl, { enableOfflineQueue: false, lazyConnect: false });
    this.limiter = new RateLimiterRedis({
      ...points,
      keyPrefix: shared.keyPrefix,
      storeClient: this.redis,
      insuranceLimiter: new RateLimiterMemory(points),
    });
  }

  /** Counts one write of the user in the session, or refuses it (429 saying when to retry). */
  async consume(userId: string, sessionId: string): Promise<void> {
    try {
      await this.limiter.consume(`${userId}:${sessionId}`);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      // Once per window, not once per refused write.
      if (error.consumedPoints === this.limit.points + 1) {
        this.logger.warn({ userId, sessionId }, `${this.limit.name} limited`);
      }
      throw tooManyRequests(this.limit.refusal(error.msBeforeNext));
    }
  }

  /** Resolves once Redis answers (at once without Redis): until then each process counts alone. */
  async connected(): Promise<void> {
    if (this.redis && this.redis.status !== 'ready') await once(this.redis, 'ready');
  }

  close(): void {
    this.redis?.disconnect();
  }
}
