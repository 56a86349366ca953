import { Injectable } from '@nestjs/common';
import { AppError, InternalClient, forbidden, memberAccess, unavailable, type AuthUser } from '@uis/kit';
import { CONSENT_TEXTS, internalRoutes, type Withdrawal } from '@uis/proto';
import { Transactions } from '../database/sql';
import { LiveAccessNotifier } from '../live-access/live-access.notifier';
import { SessionParticipantsRepository } from '../participation/session-participants.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { ConsentService } from './consent.service';

/**
 * A participant withdraws from a session. Records goes first: it deletes their messages and clicks
 * in the session and logs the withdrawal with the counts, in one transaction of its own; if it
 * cannot, nothing has changed and the participant may retry. Then, in one transaction here, their
 * agreement to the consent text ends and their e-mail leaves the session's scope (an Everyone scope
 * stays as it is: there is no list to leave) and its participant list; a retry after a failure here finds nothing left in
 * records and logs no second withdrawal. Live connections are told last, so an open live page of
 * theirs ends at once.
 */
@Injectable()
export class WithdrawalService {
  constructor(
    private readonly transactions: Transactions,
    private readonly sessions: SessionsService,
    private readonly sessionRows: SessionsRepository,
    private readonly consent: ConsentService,
    private readonly internal: InternalClient,
    private readonly live: LiveAccessNotifier,
    private readonly participants: SessionParticipantsRepository,
  ) {}

  async withdraw(caller: AuthUser, sessionId: string): Promise<Withdrawal> {
    const { role } = memberAccess(await this.sessions.access(sessionId, caller));
    if (role === 'owner') throw forbidden(CONSENT_TEXTS.ownerWithdraws);
    const withdrawal = await this.deleteRecords(caller, sessionId);
    await this.transactions.run(async (tx) => {
      await this.consent.endAgreements(tx, sessionId, caller.id, withdrawal.time);
      // The scope changes in the same transaction as the agreement (an Everyone scope has no list).
      await this.sessionRows.removeFromScope(sessionId, caller.email, tx);
      // Off the session's participant list too, with their panel ids (they may come back by its link).
      await this.participants.forgetIn(sessionId, caller.email, tx);
    });
    await this.live.changed([sessionId], false);
    return withdrawal;
  }

  private async deleteRecords(caller: AuthUser, sessionId: string): Promise<Withdrawal> {
    try {
      const { withdrawal } = await this.internal.call(internalRoutes.recordsWithdrawParticipant, {
        sessionId,
        userId: caller.id,
        email: caller.email,
        name: caller.name,
      });
      return withdrawal;
    } catch (error) {
      // Nothing changed here; records logs a withdrawal once however often it is asked: a retry is safe.
      const reason = error instanceof AppError ? error.message : String(error);
      throw unavailable(`Nothing was withdrawn: ${reason}. Please try again.`);
    }
  }
}
