import { Inject, Injectable, Module, forwardRef, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LOGGER, Metrics, type Logger } from '@uis/kit';
import { createMailQueue, type MailQueue } from '@uis/mailer';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { OidcModule } from '../oidc/oidc.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { LinkEntryService } from './link-entry.service';
import { MagicLinkEntity } from './magic-link.entity';
import { MagicLinksRepository } from './magic-links.repository';
import { MAIL_QUEUE, MagicLinksService } from './magic-links.service';
import { SignInLimiter } from './sign-in-limiter';
import { SignInController } from './sign-in.controller';
import { SignInService } from './sign-in.service';

/** Closes the connections sign-in opened itself (mail queue, rate-limit Redis) when the app stops. */
@Injectable()
class SignInResources implements OnApplicationShutdown {
  constructor(
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    private readonly limiter: SignInLimiter,
  ) {}
  async onApplicationShutdown() {
    await Promise.all([this.mail.close(), this.limiter.close()]);
  }
}

/** Magic links (mailed and minted), their limits, and signing in and up with them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([MagicLinkEntity]),
    UsersModule,
    TokensModule,
    forwardRef(() => OidcModule),
  ],
  controllers: [SignInController],
  providers: [
    {
      provide: MAIL_QUEUE,
      inject: [AUTH_CONFIG, LOGGER],
      useFactory: (config: AuthConfig, logger: Logger) => createMailQueue(config, logger),
    },
    {
      provide: SignInLimiter,
      inject: [AUTH_CONFIG, LOGGER, Metrics],
      useFactory: (config: AuthConfig, logger: Logger, metrics: Metrics) => {
        // An hourly cap reached is a spray worth a look: counted by the limit that refused.
        const refused = metrics.counter('sign_in_refused_total', 'Sign-in links refused, by limit', [
          'limit',
        ]);
        return new SignInLimiter(
          {
            perEmail: config.SIGN_IN_LIMIT_PER_EMAIL,
            emailWindowSeconds: config.SIGN_IN_LIMIT_WINDOW_SECONDS,
            perAddressPerMinute: config.SIGN_IN_LIMIT_PER_ADDRESS_PER_MINUTE,
            perAddressPerHour: config.SIGN_IN_LIMIT_PER_ADDRESS_PER_HOUR,
            redisUrl: config.REDIS_URL,
            keyPrefix: `${config.QUEUE_PREFIX}:sign-in`,
          },
          logger,
          (limit) => refused.inc({ limit }),
        );
      },
    },
    SignInResources,
    MagicLinksRepository,
    MagicLinksService,
    SignInService,
    LinkEntryService,
  ],
  exports: [MagicLinksRepository, MagicLinksService],
})
export class SignInModule {}
