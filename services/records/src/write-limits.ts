import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, SessionWriteLimiter, liveWriteLimit, minutesUntil, type Logger } from '@uis/kit';
import { DEVICE_CHECK_WINDOW_MINUTES, DEVICE_CHECKS_PER_WINDOW } from '@uis/proto';
import { RECORDS_CONFIG, type RecordsConfig } from './records.config';

export const tooManyDeviceChecksText = (msBeforeNext: number) =>
  `You ran the device check ${DEVICE_CHECKS_PER_WINDOW} times in ${DEVICE_CHECK_WINDOW_MINUTES} minutes: wait ${minutesUntil({ name: 'device checks', msBeforeNext })} before the next.`;

/**
 * What one person may write over REST in one session, per window: messages and clicks as realtime
 * counts them live (LIVE_WRITE_LIMIT per 10 s), and device checks (a person re-running the check,
 * not a script). Shared by records' replicas through Redis when there is one.
 */
@Injectable()
export class RecordWriteLimits implements OnModuleDestroy {
  readonly messagesAndClicks: SessionWriteLimiter;
  readonly deviceChecks: SessionWriteLimiter;

  constructor(@Inject(RECORDS_CONFIG) config: RecordsConfig, @Inject(LOGGER) logger: Logger) {
    const shared = (name: string) =>
      config.REDIS_URL ? { redisUrl: config.REDIS_URL, keyPrefix: `uis:records:${name}` } : undefined;
    this.messagesAndClicks = new SessionWriteLimiter(
      liveWriteLimit(config.LIVE_WRITE_LIMIT),
      logger,
      shared('live-writes'),
    );
    this.deviceChecks = new SessionWriteLimiter(
      {
        name: 'device checks',
        points: DEVICE_CHECKS_PER_WINDOW,
        durationSeconds: DEVICE_CHECK_WINDOW_MINUTES * 60,
        refusal: tooManyDeviceChecksText,
      },
      logger,
      shared('device-checks'),
    );
  }

  onModuleDestroy(): void {
    this.messagesAndClicks.close();
    this.deviceChecks.close();
  }
}
