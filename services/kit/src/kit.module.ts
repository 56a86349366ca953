import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ServiceName } from '@uis/proto';
import { AccessGuard } from './auth/access.guard';
import { Revocations } from './auth/revocations';
import { Metrics } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';
import { HealthController } from './health/health.controller';
import { Readiness } from './health/readiness';
import { InternalClient } from './internal/internal-client';
import { InternalGuard } from './internal/internal.guard';
import { SessionAccessClient } from './internal/session-access';
import { JWT_SECRET, LOGGER, SERVICE_NAME, SERVICE_TOKEN } from './keys';
import type { Logger } from './logger';

export interface KitOptions {
  service: ServiceName;
  logger: Logger;
  jwtSecret: string;
  serviceToken: string;
  /** Base URL of each service this one calls internally. */
  urlOf: (service: ServiceName) => string;
  /** Redis shared by the deployment (revocations are kept there); without it, in this process. */
  redisUrl?: string;
  metrics: Metrics;
}

/** Closes what the kit opened for the service (the revocations' Redis connections). */
@Injectable()
class KitLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Revocations) private readonly revocations: Revocations) {}
  async onApplicationShutdown(): Promise<void> {
    await this.revocations.close();
  }
}

/** What every service needs once: secrets, logger, guards, internal client, health endpoints. */
@Global()
@Module({})
export class KitModule {
  static forRoot(options: KitOptions): DynamicModule {
    return {
      module: KitModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: SERVICE_NAME, useValue: options.service },
        { provide: LOGGER, useValue: options.logger },
        { provide: Metrics, useValue: options.metrics },
        { provide: JWT_SECRET, useValue: options.jwtSecret },
        { provide: SERVICE_TOKEN, useValue: options.serviceToken },
        {
          provide: InternalClient,
          useValue: new InternalClient({ serviceToken: options.serviceToken, urlOf: options.urlOf }),
        },
        {
          provide: SessionAccessClient,
          inject: [InternalClient],
          useFactory: (internal: InternalClient) => new SessionAccessClient(internal),
        },
        {
          provide: Revocations,
          useFactory: () =>
            options.redisUrl ? Revocations.shared(options.redisUrl, options.logger) : Revocations.inProcess(),
        },
        KitLifecycle,
        Readiness,
        AccessGuard,
        InternalGuard,
      ],
      exports: [
        Metrics,
        Revocations,
        SERVICE_NAME,
        LOGGER,
        JWT_SECRET,
        SERVICE_TOKEN,
        InternalClient,
        SessionAccessClient,
        Readiness,
        AccessGuard,
        InternalGuard,
      ],
    };
  }
}
