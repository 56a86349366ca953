import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** One limit: `points` per `durationSeconds` for each key `key` makes of the request. */
export interface LimitRule<A> {
  name: string;
  points: number;
  durationSeconds: number;
  key: (args: A) => string;
}

/** Which limit refused a request, and when it admits again. */
export interface LimitRefusal {
  name: string;
  msBeforeNext: number;
}

interface Counter<A> {
  rule: LimitRule<A>;
  limiter: RateLimiterAbstract;
}

/**
 * Several limits on one kind of request, all or nothing: a request is charged only when every
 * limit admits it (one refused by a limit gives back what the others took), so retrying while
 * blocked costs nothing. Shared through Redis when there is one, so every replica counts together;
 * if Redis is unreachable the limits fall back to this process's memory rather than failing open.
 */
export class CombinedLimiter<A> {
  private readonly redis?: Redis;
  private readonly counters: Counter<A>[];

  constructor(rules: readonly LimitRule<A>[], options: { keyPrefix: string; redisUrl?: string }) {
    // rate-limiter-flexible wants commands to fail fast while Redis is down (its insurance takes over).
    if (options.redisUrl)
      this.redis = new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: false });
    this.counters = rules.map((rule) => {
      const limits = {
        keyPrefix: `${options.keyPrefix}:${rule.name}`,
        points: rule.points,
        duration: rule.durationSeconds,
      };
      const limiter = this.redis
        ? new RateLimiterRedis({
            ...limits,
            storeClient: this.redis,
            insuranceLimiter: new RateLimiterMemory(limits),
          })
        : new RateLimiterMemory(limits);
      return { rule, limiter };
    });
  }

  /** Charges every limit for this request, or none: null when admitted, else the refusing limit. */
  async consume(args: A): Promise<LimitRefusal | null> {
    const charged: Counter<A>[] = [];
    for (const counter of this.counters) {
      try {
        await counter.limiter.consume(counter.rule.key(args));
        charged.push(counter);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        await Promise.all(charged.map((done) => done.limiter.reward(done.rule.key(args))));
        return { name: counter.rule.name, msBeforeNext: error.msBeforeNext };
      }
    }
    return null;
  }

  close(): void {
    this.redis?.disconnect();
  }
}

/** "N minutes" (at least one) until a refused request may be tried again, for the refusal's text. */
export const minutesUntil = ({ msBeforeNext }: LimitRefusal): string => {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
