import { createHash } from 'node:crypto';
import type { Logger } from '@uis/kit';
import { QUEUES, type MailJob } from '@uis/proto';
import { Queue, type JobsOptions } from 'bullmq';
import type { MailConfig } from './mail.config';
import { MailProcessor, describeMailError, isPermanentMailError, parseMailJob } from './mail.processor';
import { createMailTransport, type MailTransportOptions } from './mail.transport';
import { MemorySentMarkerStore } from './sent-marker.store';

/** Where producers put mail jobs. Enqueueing the same requestId again is a no-op. */
export interface MailQueue {
  /** Validates the job (MailJobInvalidError) and queues it; resolves once queued, not once sent. */
  enqueue(job: MailJob): Promise<void>;
  close(): Promise<void>;
}

/** A finished request stays known this long, so a late duplicate enqueue is still a no-op. */
const KEEP_COMPLETED_SECONDS = 24 * 60 * 60;
const KEEP_FAILED_SECONDS = 7 * 24 * 60 * 60;

/** The wait before retry number `attemptsMade + 1`: BullMQ's exponential strategy, so both queues agree. */
export const backoffDelay = (baseMs: number, attemptsMade: number): number =>
  Math.round(2 ** (attemptsMade - 1) * baseMs);

/**
 * The request id is the job id. BullMQ refuses ids that are integers or hold ':'; such ids get a
 * stable digest instead, which keeps "same request, same job" true.
 */
export const mailJobId = (requestId: string): string =>
  /^\d+$/.test(requestId) || requestId.includes(':')
    ? `req-${createHash('sha256').update(requestId).digest('hex')}`
    : requestId;

export const mailJobOptions = (
  config: Pick<MailConfig, 'MAIL_ATTEMPTS' | 'MAIL_BACKOFF_MS'>,
): JobsOptions => ({
  attempts: config.MAIL_ATTEMPTS,
  backoff: { type: 'exponential', delay: config.MAIL_BACKOFF_MS },
  removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
  removeOnFail: { age: KEEP_FAILED_SECONDS },
});

/** The producer side of the BullMQ mail queue; the mailer service's worker consumes it. */
export class BullMailQueue implements MailQueue {
  private readonly queue: Queue;

  constructor(
    private readonly config: MailConfig & { REDIS_URL: string },
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(QUEUES.mail, {
      connection: { url: config.REDIS_URL },
      prefix: config.QUEUE_PREFIX,
    });
    this.queue.on('error', (error) => this.logger.warn({ err: error.message }, 'mail queue: redis error'));
  }

  async enqueue(payload: MailJob): Promise<void> {
    const job = parseMailJob(payload);
    await this.queue.add(job.kind, job, { ...mailJobOptions(this.config), jobId: mailJobId(job.requestId) });
    this.logger.debug({ requestId: job.requestId, to: job.to }, 'mail queued');
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

export interface InProcessMailQueueOptions {
  attempts: number;
  backoffMs: number;
}

/**
 * The same processor, attempts and backoff as the BullMQ path, inside this process: what runs
 * when there is no Redis (embedded mode). Nothing survives a restart, which is fine for one process.
 */
export class InProcessMailQueue implements MailQueue {
  /** requestId -> until when a new enqueue of it is a duplicate (Infinity while in flight). */
  private readonly known = new Map<string, number>();
  /** Attempts waiting for their timer: the first one (delay 0) or a retry after its backoff. */
  private readonly timers = new Map<NodeJS.Timeout, { job: MailJob; attempt: number }>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly processor: MailProcessor,
    private readonly options: InProcessMailQueueOptions,
    private readonly logger: Logger,
  ) {}

  enqueue(payload: MailJob): Promise<void> {
    // A throw inside the executor becomes a rejection, as with the BullMQ queue.
    return new Promise<void>((resolve) => {
      this.add(payload);
      resolve();
    });
  }

  /**
   * Sends what was enqueued but not tried yet and waits for attempts under way; retries still
   * waiting out their backoff are dropped (and logged), so no timer outlives the queue.
   */
  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.timers];
    this.timers.clear();
    let dropped = 0;
    for (const [timer, { job, attempt }] of waiting) {
      clearTimeout(timer);
      if (attempt === 1) this.run(job, attempt);
      else dropped += 1;
    }
    if (dropped > 0) this.logger.warn({ dropped }, 'mail queue closed with mails waiting for a retry');
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.processor.close();
  }

  private add(payload: MailJob): void {
    if (this.closed) throw new Error('the mail queue is closed');
    const job = parseMailJob(payload);
    const now = Date.now();
    for (const [id, until] of this.known) if (until <= now) this.known.delete(id);
    if (this.known.has(job.requestId)) {
      this.logger.debug({ requestId: job.requestId }, 'mail already queued for this request');
      return;
    }
    this.known.set(job.requestId, Infinity);
    this.schedule(job, 1, 0);
  }

  private schedule(job: MailJob, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(job, attempt);
    }, delayMs);
    this.timers.set(timer, { job, attempt });
  }

  private run(job: MailJob, attempt: number): void {
    const run = this.attempt(job, attempt).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async attempt(job: MailJob, attempt: number): Promise<void> {
    const context = { requestId: job.requestId, to: job.to, attempt, attempts: this.options.attempts };
    try {
      await this.processor.process(job);
      this.known.set(job.requestId, Date.now() + KEEP_COMPLETED_SECONDS * 1000);
    } catch (error) {
      const failure = { ...context, ...describeMailError(error) };
      const { stats } = this.processor;
      const permanent = isPermanentMailError(error);
      if (!permanent && attempt < this.options.attempts && !this.closed) {
        const delayMs = backoffDelay(this.options.backoffMs, attempt);
        this.logger.warn(
          { ...failure, retryInMs: delayMs, totals: stats.count('retried') },
          'mail attempt failed, will retry',
        );
        this.schedule(job, attempt + 1, delayMs);
      } else {
        this.logger.error({ ...failure, permanent, totals: stats.count('failed') }, 'mail failed for good');
        this.known.set(job.requestId, Date.now() + KEEP_FAILED_SECONDS * 1000);
      }
    }
  }
}

/**
 * The queue producers use: BullMQ when REDIS_URL is set (the mailer service sends), otherwise an
 * in-process queue that sends itself (SMTP_URL, or the dev outbox).
 */
export function createMailQueue(
  config: MailConfig,
  logger: Logger,
  options: Pick<MailTransportOptions, 'print'> = {},
): MailQueue {
  const { REDIS_URL } = config;
  if (REDIS_URL) return new BullMailQueue({ ...config, REDIS_URL }, logger);
  const processor = new MailProcessor(
    // This process is the only sender, so the pool itself keeps MAIL_RATE_PER_SECOND.
    createMailTransport(config, { ...options, poolRateLimit: true }),
    new MemorySentMarkerStore(),
    logger,
  );
  return new InProcessMailQueue(
    processor,
    { attempts: config.MAIL_ATTEMPTS, backoffMs: config.MAIL_BACKOFF_MS },
    logger,
  );
}
