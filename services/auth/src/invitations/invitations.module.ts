import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { SignInModule } from '../sign-in/sign-in.module';
import { InvitationLimiter } from './invitation-limiter';
import { InvitationsInternalController } from './invitations.internal.controller';

/** Closes the invitation limiter's Redis connection when the app stops. */
@Injectable()
class InvitationResources implements OnApplicationShutdown {
  constructor(private readonly limiter: InvitationLimiter) {}
  onApplicationShutdown() {
    this.limiter.close();
  }
}

/** Invitation mails to a session, asked by studies, with their own limits. */
@Module({
  imports: [SignInModule],
  controllers: [InvitationsInternalController],
  providers: [
    {
      provide: InvitationLimiter,
      inject: [AUTH_CONFIG, LOGGER],
      useFactory: (config: AuthConfig, logger: Logger) =>
        new InvitationLimiter(
          { redisUrl: config.REDIS_URL, keyPrefix: `${config.QUEUE_PREFIX}:invitations` },
          logger,
        ),
    },
    InvitationResources,
  ],
})
export class InvitationsModule {}
