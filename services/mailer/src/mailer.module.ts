import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Metrics, Readiness, type Logger } from '@uis/kit';
import { QUEUES } from '@uis/proto';
import { Queue } from 'bullmq';
import type { MailConfig } from './mail.config';
import { startMailWorker, type MailWorker } from './mail.worker';

const MAIL_CONFIG = Symbol('MAIL_CONFIG');
const MAIL_LOGGER = Symbol('MAIL_LOGGER');

/** Runs the BullMQ worker for the app's lifetime when there is a Redis to consume from. */
@Injectable()
export class MailWorkerHost implements OnModuleInit, OnModuleDestroy {
  private worker: MailWorker | undefined;
  /** Read-only view of the queue, for its depth in the metrics. */
  private queue: Queue | undefined;

  constructor(
    @Inject(MAIL_CONFIG) private readonly config: MailConfig,
    @Inject(MAIL_LOGGER) private readonly logger: Logger,
    private readonly readiness: Readiness,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    if (!this.config.REDIS_URL) {
      this.logger.info('no REDIS_URL: no mail worker here, producers send through their in-process queue');
      return;
    }
    const worker = startMailWorker(this.config, this.logger);
    this.worker = worker;
    this.readiness.add('redis', () => worker.ping());
    this.exportMetrics(worker, this.config.REDIS_URL);
    const { QUEUE_PREFIX, SMTP_POOL_CONNECTIONS, SMTP_POOL_MESSAGES, MAIL_RATE_PER_SECOND } = this.config;
    this.logger.info(
      {
        prefix: QUEUE_PREFIX,
        concurrency: worker.worker.opts.concurrency,
        ...(this.config.SMTP_URL && {
          poolConnections: SMTP_POOL_CONNECTIONS,
          poolMessages: SMTP_POOL_MESSAGES,
        }),
        ratePerSecond: MAIL_RATE_PER_SECOND ?? 'unlimited',
        dkim: this.config.DKIM_DOMAIN ?? 'off',
      },
      'mail worker started',
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    this.worker = undefined;
    this.queue = undefined;
  }

  /** Mail queue depth and what the worker did with mail (failures included), read at each scrape. */
  private exportMetrics(worker: MailWorker, redisUrl: string): void {
    const queue = new Queue(QUEUES.mail, { connection: { url: redisUrl }, prefix: this.config.QUEUE_PREFIX });
    queue.on('error', () => undefined); // the worker's connection reports Redis outages already
    this.queue = queue;
    this.metrics.gauge('mail_queue_jobs', 'Mail jobs in the queue by state', {
      labelNames: ['state'],
      async collect() {
        const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
        for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
      },
    });
    this.metrics.gauge('mail_jobs_total', 'Mail jobs this worker handled since it started, by outcome', {
      labelNames: ['outcome'],
      collect() {
        for (const [outcome, count] of Object.entries<number>({ ...worker.totals() }))
          this.set({ outcome }, count);
      },
    });
  }
}

@Module({})
export class MailerModule {
  static forRoot(config: MailConfig, logger: Logger): DynamicModule {
    return {
      module: MailerModule,
      providers: [
        { provide: MAIL_CONFIG, useValue: config },
        { provide: MAIL_LOGGER, useValue: logger },
        MailWorkerHost,
      ],
    };
  }
}
