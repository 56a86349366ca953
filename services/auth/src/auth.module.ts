import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule, type Logger } from '@uis/kit';
import { createMailQueue, type MailQueue } from '@uis/mailer';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { CreateAuthTables1763769600000 } from './migrations/1763769600000-create-auth-tables';
import { MagicLinkEntity } from './sign-in/magic-link.entity';
import { MAIL_QUEUE, MagicLinksService } from './sign-in/magic-links.service';
import { SignInLimiter } from './sign-in/sign-in-limiter';
import { SignInController } from './sign-in/sign-in.controller';
import { SignInService } from './sign-in/sign-in.service';
import { RefreshTokenEntity } from './tokens/refresh-token.entity';
import { SessionTokensService } from './tokens/session-tokens.service';
import { AccountDeletionService, userDataOwnersProvider } from './users/account-deletion.service';
import { UserEntity } from './users/user.entity';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';

const entities = [UserEntity, MagicLinkEntity, RefreshTokenEntity];
export const AUTH_SCHEMA = 'auth';

/** Closes the connections auth opened itself (mail queue, rate-limit Redis) when the app stops. */
class AuthResources implements OnApplicationShutdown {
  constructor(
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    private readonly limiter: SignInLimiter,
  ) {}
  async onApplicationShutdown() {
    await Promise.all([this.mail.close(), this.limiter.close()]);
  }
}

@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig, logger: Logger): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        DatabaseModule.forService({
          url: config.DATABASE_URL,
          schema: AUTH_SCHEMA,
          entities,
          migrations: [CreateAuthTables1763769600000],
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [SignInController, UsersController],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        { provide: MAIL_QUEUE, useFactory: () => createMailQueue(config, logger) },
        {
          provide: SignInLimiter,
          useFactory: () =>
            new SignInLimiter({
              perEmail: config.SIGN_IN_LIMIT_PER_EMAIL,
              perAddress: config.SIGN_IN_LIMIT_PER_ADDRESS,
              windowSeconds: config.SIGN_IN_LIMIT_WINDOW_SECONDS,
              redisUrl: config.REDIS_URL,
              keyPrefix: `${config.QUEUE_PREFIX}:sign-in`,
            }),
        },
        userDataOwnersProvider,
        AuthResources,
        MagicLinksService,
        SignInService,
        SessionTokensService,
        UsersService,
        AccountDeletionService,
      ],
    };
  }
}
