import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule, Metrics, type Logger } from '@uis/kit';
import { createMailQueue, type MailQueue } from '@uis/mailer';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { InvitationLimiter } from './invitations/invitation-limiter';
import { InvitationsController } from './invitations/invitations.controller';
import { CreateAuthTables1763769600000 } from './migrations/1763769600000-create-auth-tables';
import { CreateProviderIdentities1795700000000 } from './migrations/1795700000000-create-provider-identities';
import { IdentitiesService } from './oidc/identities.service';
import { IdentityEntity } from './oidc/identity.entity';
import { OidcController } from './oidc/oidc.controller';
import { OidcService } from './oidc/oidc.service';
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

const entities = [UserEntity, MagicLinkEntity, RefreshTokenEntity, IdentityEntity];

export const AUTH_SCHEMA = 'auth';

/** Auth's tables: its schema, entities and migrations (the module and the migrate entry). */
export const authDatabase = () => ({
  schema: AUTH_SCHEMA,
  entities,
  migrations: [CreateAuthTables1763769600000, CreateProviderIdentities1795700000000],
});

/** Closes the connections auth opened itself (mail queue, rate-limit Redis) when the app stops. */
class AuthResources implements OnApplicationShutdown {
  constructor(
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    private readonly limiter: SignInLimiter,
    private readonly invitations: InvitationLimiter,
  ) {}
  async onApplicationShutdown() {
    this.invitations.close();
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
          ...authDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [SignInController, OidcController, UsersController, InvitationsController],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        OidcService,
        IdentitiesService,
        { provide: MAIL_QUEUE, useFactory: () => createMailQueue(config, logger) },
        {
          provide: SignInLimiter,
          inject: [Metrics],
          useFactory: (metrics: Metrics) => {
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
        {
          provide: InvitationLimiter,
          useFactory: () =>
            new InvitationLimiter(
              { redisUrl: config.REDIS_URL, keyPrefix: `${config.QUEUE_PREFIX}:invitations` },
              logger,
            ),
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
