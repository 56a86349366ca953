import { Inject, Injectable } from '@nestjs/common';
import { AppError, InternalClient, LOGGER, type AuthUser, type Logger } from '@uis/kit';
import { internalRoutes } from '@uis/proto';
import { SessionParticipantsRepository } from './session-participants.repository';

/** Invitation calls to auth in flight at once while a saved scope's new addresses are invited. */
const SENDS_AT_ONCE = 10;

interface InvitedSession {
  id: string;
  title: string;
}

/** Invitation mails, through auth (which owns sign-in links, the mail queue and the invitation limits). */
@Injectable()
export class InvitationSender {
  constructor(
    private readonly internal: InternalClient,
    private readonly participants: SessionParticipantsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** One mail to one address; a refusal (auth's limits, auth away) is thrown as it came. */
  async send(researcher: AuthUser, session: InvitedSession, email: string): Promise<void> {
    await this.internal.call(internalRoutes.authSendInvitation, {
      sessionId: session.id,
      email,
      sessionTitle: session.title,
      researcherName: researcher.name,
    });
    await this.participants.invited(session.id, email);
  }

  /**
   * The addresses a saved scope added: each gets its mail, SENDS_AT_ONCE at a time (a class of
   * hundreds takes about a second). The scope is saved whatever happens here: an address whose mail
   * could not go shows as not invited yet in the editor, which can re-send it.
   */
  async sendAll(researcher: AuthUser, session: InvitedSession, emails: readonly string[]): Promise<void> {
    for (let start = 0; start < emails.length; start += SENDS_AT_ONCE) {
      const outcomes = await Promise.allSettled(
        emails.slice(start, start + SENDS_AT_ONCE).map((email) => this.send(researcher, session, email)),
      );
      const failures = outcomes.flatMap((outcome): unknown[] =>
        outcome.status === 'rejected' ? [outcome.reason] : [],
      );
      if (failures.length === 0) continue;
      const reason = failures[0] instanceof AppError ? failures[0].message : String(failures[0]);
      this.logger.warn(
        { sessionId: session.id, failed: failures.length, err: reason },
        'invitations not sent',
      );
    }
  }
}
