import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, SessionWriteLimiter, type Logger } from '@uis/kit';
import { EXPOSURE_BATCHES_PER_WINDOW, EXPOSURE_WINDOW_SECONDS } from '@uis/proto';
import { REALTIME_TEXTS as TEXTS } from '../realtime.texts';

/**
 * Exposure batches one participant may send per session and window, on this replica (in memory, as
 * the live write limit): a client sends one every few seconds, or sooner when one fills up.
 */
@Injectable()
export class ExposureLimiter extends SessionWriteLimiter {
  constructor(@Inject(LOGGER) logger: Logger) {
    super(
      {
        name: 'exposure batches',
        points: EXPOSURE_BATCHES_PER_WINDOW,
        durationSeconds: EXPOSURE_WINDOW_SECONDS,
        refusal: (ms) => TEXTS.tooManyExposureReports(Math.max(1, Math.ceil(ms / 1000))),
      },
      logger,
    );
  }
}
