import { CombinedLimiter, minutesUntil, tooManyRequests, type Logger } from '@uis/kit';
import { INVITATIONS_PER_ADDRESS_PER_HOUR, INVITATIONS_PER_SESSION_PER_HOUR } from '@uis/proto';
import { inboxKey } from '../sign-in/limit-keys';

/**
 * Invitation mails one inbox may get per hour from all sessions together: a participant of a few
 * studies at once, never a flood that many sessions (or one researcher's many) add up to.
 */
export const INVITATIONS_PER_INBOX_PER_HOUR = 10;

interface Invitation {
  sessionId: string;
  email: string;
}

/**
 * Invitation mails: a few per address and session in an hour (a re-send or two, never a flood), a
 * few more per inbox from every session, and a class's worth per session. Inboxes are counted as
 * the sign-in limits count them (one inbox's spellings are one). Kept apart from the sign-in
 * limits: a researcher inviting a class spends no student's own sign-in budget.
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
          key: ({ sessionId, email }) => `${sessionId}:${inboxKey(email)}`,
        },
        {
          name: 'inbox',
          points: INVITATIONS_PER_INBOX_PER_HOUR,
          durationSeconds: 3600,
          key: ({ email }) => inboxKey(email),
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
    const wait = minutesUntil(refusal);
    const why: Record<string, string> = {
      address: `${email} was invited ${INVITATIONS_PER_ADDRESS_PER_HOUR} times in the last hour`,
      inbox: `${email} got ${INVITATIONS_PER_INBOX_PER_HOUR} invitations in the last hour, from all sessions`,
      session: `This session sent ${INVITATIONS_PER_SESSION_PER_HOUR} invitations in the last hour`,
    };
    throw tooManyRequests(`${why[refusal.name] ?? 'Too many invitations'}: try again in ${wait}.`);
  }

  close(): void {
    this.limits.close();
  }
}
