import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, tooManyRequests, type Logger } from '@uis/kit';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';

/** The window LIVE_WRITE_LIMIT counts in. */
export const WRITE_WINDOW_SECONDS = 10;

export const tooManyWritesText = (seconds: number) =>
  `You are sending too fast: wait ${seconds} second${seconds === 1 ? '' : 's'} before the next message or click.`;

/**
 * Messages and clicks one user may store in one session per window, on this replica: well above
 * anyone typing, reacting or clicking, far below a script filling the database. (The sockets one
 * user may hold per replica are capped at the handshake, so several sockets do not multiply it.)
 */
@Injectable()
export class WriteLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(
    @Inject(REALTIME_CONFIG) config: RealtimeConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.limiter = new RateLimiterMemory({ points: config.LIVE_WRITE_LIMIT, duration: WRITE_WINDOW_SECONDS });
  }

  /** Counts one write of the user in the session, or refuses it (429, the acknowledgement says when to retry). */
  async consume(userId: string, sessionId: string): Promise<void> {
    try {
      await this.limiter.consume(`${userId}:${sessionId}`);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      if (error.consumedPoints === this.limiter.points + 1) {
        this.logger.warn({ userId, sessionId }, 'live writes limited');
      }
      throw tooManyRequests(tooManyWritesText(Math.max(1, Math.ceil(error.msBeforeNext / 1000))));
    }
  }
}
