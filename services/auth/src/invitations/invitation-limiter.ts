import { CombinedLimiter, minutesUntil, tooManyRequests, type Logger } from '@uis/kit';
import { INVITATIONS_PER_ADDRESS_PER_HOUR, INVITATIONS_PER_SESSION_PER_HOUR } from '@uis/proto';

interface Invitation {
  sessionId: string;
  email: string;
}

/**
 * Invitation mails: a few per address and session in an hour (a re-send or two, never a flood), and
 * a class's worth per session. Kept apart from the sign-in limits: a researcher inviting a class
 * spends no student's own sign-in budget.
 */
export class InvitationLimiter {
  private readonly limits: CombinedLimiter<Invitation>;

  constructor(
    options: { keyPrefix: string; redisUrl?: string },
    private readonly logger: Logger,
  ) {
    this.limits = new CombinedLimiter<Invitation>(
      [
        {
          name: 'address',
          points: INVITATIONS_PER_ADDRESS_PER_HOUR,
          durationSeconds: 3600,
          key: ({ sessionId, email }) => `${sessionId}:${email}`,
        },
        {
          name: 'session',
          points: INVITATIONS_PER_SESSION_PER_HOUR,
          durationSeconds: 3600,
          key: ({ sessionId }) => sessionId,
        },
      ],
      options,
    );
  }

  /** Admits one invitation mail, or refuses (429) saying whose limit and when to try again. */
  async consume(sessionId: string, email: string): Promise<void> {
    const refusal = await this.limits.consume({ sessionId, email });
    if (!refusal) return;
    this.logger.warn({ sessionId, limit: refusal.name }, 'invitation mails limited');
    throw tooManyRequests(
      refusal.name === 'address'
        ? `${email} was invited ${INVITATIONS_PER_ADDRESS_PER_HOUR} times in the last hour: try again in ${minutesUntil(refusal)}.`
        : `This session sent ${INVITATIONS_PER_SESSION_PER_HOUR} invitations in the last hour: try again in ${minutesUntil(refusal)}.`,
    );
  }

  close(): void {
    this.limits.close();
  }
}
