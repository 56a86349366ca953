import { connectRedis, type Logger } from '@uis/kit';
import { QUEUES } from '@uis/proto';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { mailRateWindow, mailWorkerConcurrency, type MailConfig } from './mail.config';
import { MailProcessor, describeMailError, isPermanentMailError, type MailOutcome } from './mail.processor';
import { MailStats, type MailTotals } from './mail.stats';
import { createMailTransport, type MailTransportOptions } from './mail.transport';
import { RedisSentMarkerStore } from './sent-marker.store';

export interface MailWorkerOptions extends Pick<MailTransportOptions, 'print'> {
  /** BullMQ job lock; a crashed worker's job is taken over once it lapses (default 30 s). */
  lockDuration?: number;
  /** How often stalled jobs (those of a crashed worker) are looked for (default 30 s). */
  stalledInterval?: number;
}

export interface MailWorker {
  readonly worker: Worker;
  /** What this worker did so far (sent, retried, failed...): see MailStats. */
  totals(): MailTotals;
  /** Resolves when Redis answers (the readiness probe). */
  ping(): Promise<void>;
  /**
   * Stops taking jobs and waits for those under way. With `force` it does not wait for the
   * queue bookkeeping: a send under way still finishes and is marked, as if the process had
   * died right after sending, and another worker takes the job over once its lock lapses.
   */
  close(options?: { force?: boolean }): Promise<void>;
}

/** A string field of a payload that may not be a valid job. */
const fieldOf = (data: unknown, field: 'to' | 'requestId'): string | undefined => {
  const value = (data as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' ? value : undefined;
};

/** Consumes QUEUES.mail: validate, render, send, at most one mail per request. Needs REDIS_URL. */
export function startMailWorker(
  config: MailConfig,
  logger: Logger,
  options: MailWorkerOptions = {},
): MailWorker {
  const { REDIS_URL } = config;
  if (!REDIS_URL) throw new Error('the mail worker needs REDIS_URL (without it producers send in-process)');

  const redis = connectRedis(REDIS_URL, 'mailer:sent-markers');
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'mail worker: redis error'));
  const stats = new MailStats();
  const processor = new MailProcessor(
    // MAIL_RATE_PER_SECOND is the queue's limiter here (below), not the pool's.
    createMailTransport(config, { print: options.print }),
    new RedisSentMarkerStore(redis, config.QUEUE_PREFIX),
    logger,
    stats,
  );
  const rate = mailRateWindow(config);
  const inFlight = new Set<Promise<MailOutcome>>();

  const worker = new Worker(
    QUEUES.mail,
    async (job: Job) => {
      const run = processor.process(job.data);
      inFlight.add(run);
      try {
        return await run;
      } catch (error) {
        // Bad payloads and refused recipients fail at once; anything else is retried with backoff.
        if (isPermanentMailError(error)) {
          const { responseCode } = describeMailError(error);
          throw Object.assign(new UnrecoverableError((error as Error).message), { responseCode });
        }
        throw error;
      } finally {
        inFlight.delete(run);
      }
    },
    {
      connection: { url: REDIS_URL },
      prefix: config.QUEUE_PREFIX,
      concurrency: mailWorkerConcurrency(config),
      // The relay's cap, counted in Redis: it holds for every worker of the queue together.
      ...(rate && { limiter: { max: rate.max, duration: rate.durationMs } }),
      // Only when given: BullMQ merges options with Object.assign, so an undefined would erase its default.
      ...(options.lockDuration !== undefined && { lockDuration: options.lockDuration }),
      ...(options.stalledInterval !== undefined && { stalledInterval: options.stalledInterval }),
    },
  );

  worker.on('failed', (job, error) => {
    if (!job) return;
    const attempts = job.opts.attempts ?? 1;
    const final = error instanceof UnrecoverableError || job.attemptsMade >= attempts;
    // The recipient and request only: the job data holds the link and its token.
    const context = {
      requestId: fieldOf(job.data, 'requestId') ?? job.id,
      to: fieldOf(job.data, 'to'),
      attempt: job.attemptsMade,
      attempts,
      ...describeMailError(error),
    };
    if (final) {
      const permanent = error instanceof UnrecoverableError;
      logger.error({ ...context, permanent, totals: stats.count('failed') }, 'mail failed for good');
    } else {
      logger.warn({ ...context, totals: stats.count('retried') }, 'mail attempt failed, will retry');
    }
  });
  worker.on('error', (error) => logger.warn({ err: error.message }, 'mail worker error'));

  let closing: Promise<void> | undefined;
  return {
    worker,
    totals: () => stats.snapshot(),
    async ping() {
      await redis.ping();
    },
    close({ force = false } = {}) {
      closing ??= (async () => {
        await worker.close(force);
        await Promise.allSettled([...inFlight]);
        processor.close();
        await redis.quit().catch(() => redis.disconnect());
        logger.info({ totals: stats.snapshot() }, 'mail worker stopped');
      })();
      return closing;
    },
  };
}
