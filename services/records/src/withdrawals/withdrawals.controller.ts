import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, InternalEndpoint, type AuthUser } from '@uis/kit';
import {
  internalRoutes,
  routes,
  type AnswerOf,
  type InternalAnswerOf,
  type ParsedInternalRequestOf,
  type ParsedRequestOf,
} from '@uis/proto';
import { WithdrawalsService } from './withdrawals.service';

/** Withdrawals: studies' call that carries one out, and the researcher's list of them. */
@Controller()
export class WithdrawalsController {
  constructor(private readonly withdrawals: WithdrawalsService) {}

  @Endpoint(routes.getSessionWithdrawals)
  async getSessionWithdrawals(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getSessionWithdrawals'>,
  ): Promise<AnswerOf<'getSessionWithdrawals'>> {
    const { rows, next } = await this.withdrawals.listFor(caller, sessionId, after);
    return { withdrawals: rows, next };
  }

  @InternalEndpoint(internalRoutes.recordsWithdrawParticipant)
  async withdrawParticipant(
    @Input() { sessionId, ...author }: ParsedInternalRequestOf<'recordsWithdrawParticipant'>,
  ): Promise<InternalAnswerOf<'recordsWithdrawParticipant'>> {
    return { withdrawal: await this.withdrawals.withdraw(sessionId, author) };
  }
}
