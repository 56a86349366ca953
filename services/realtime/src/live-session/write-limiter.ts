import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, SessionWriteLimiter, liveWriteLimit, type Logger } from '@uis/kit';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';

export { WRITE_WINDOW_SECONDS, tooManyWritesText } from '@uis/kit';

/**
 * Messages and clicks one user may store in one session per window (kit's live write limit, which
 * records applies to the same writes over REST), on this replica: in memory, so the live hot path
 * waits on no Redis. (The sockets one user may hold per replica are capped at the handshake, so
 * several sockets do not multiply it.)
 */
@Injectable()
export class WriteLimiter extends SessionWriteLimiter {
  constructor(@Inject(REALTIME_CONFIG) config: RealtimeConfig, @Inject(LOGGER) logger: Logger) {
    super(liveWriteLimit(config.LIVE_WRITE_LIMIT), logger);
  }
}
