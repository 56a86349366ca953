import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Readiness, type Logger } from '@uis/kit';
import type { MailConfig } from './mail.config';
import { startMailWorker, type MailWorker } from './mail.worker';

const MAIL_CONFIG = Symbol('MAIL_CONFIG');
const MAIL_LOGGER = Symbol('MAIL_LOGGER');

/** Runs the BullMQ worker for the app's lifetime when there is a Redis to consume from. */
@Injectable()
export class MailWorkerHost implements OnModuleInit, OnModuleDestroy {
  private worker: MailWorker | undefined;

  constructor(
    @Inject(MAIL_CONFIG) private readonly config: MailConfig,
    @Inject(MAIL_LOGGER) private readonly logger: Logger,
    private readonly readiness: Readiness,
  ) {}

  onModuleInit(): void {
    if (!this.config.REDIS_URL) {
      this.logger.info('no REDIS_URL: no mail worker here, producers send through their in-process queue');
      return;
    }
    const worker = startMailWorker(this.config, this.logger);
    this.worker = worker;
    this.readiness.add('redis', () => worker.ping());
    this.logger.info({ prefix: this.config.QUEUE_PREFIX }, 'mail worker started');
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    this.worker = undefined;
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
