import { tooManyRequests } from '@uis/kit';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface SignInLimits {
  perEmail: number;
  perAddress: number;
  windowSeconds: number;
  redisUrl?: string;
  keyPrefix: string;
}

/**
 * Caps sign-in mails per e-mail (so no one floods an inbox) and per client address (so no one
 * sprays many inboxes). Shared through Redis when there is one, so every replica counts together;
 * if Redis is unreachable the limits fall back to this process's memory rather than failing open.
 */
export class SignInLimiter {
  private readonly redis?: Redis;
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(limits: SignInLimits) {
    const make = (name: string, points: number) => {
      const options = { keyPrefix: `${limits.keyPrefix}:${name}`, points, duration: limits.windowSeconds };
      if (!this.redis) return new RateLimiterMemory(options);
      return new RateLimiterRedis({
        ...options,
        storeClient: this.redis,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    };
    // rate-limiter-flexible wants commands to fail fast while Redis is down (its insurance takes over).
    if (limits.redisUrl)
      this.redis = new Redis(limits.redisUrl, { enableOfflineQueue: false, lazyConnect: false });
    this.byEmail = make('email', limits.perEmail);
    this.byAddress = make('address', limits.perAddress);
  }

  async consume(email: string, address: string): Promise<void> {
    try {
      await Promise.all([this.byEmail.consume(email), this.byAddress.consume(address)]);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const minutes = Math.max(1, Math.ceil(error.msBeforeNext / 60_000));
      throw tooManyRequests(
        `Too many sign-in requests. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      );
    }
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
    return Promise.resolve();
  }
}
