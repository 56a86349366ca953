import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { WithdrawalsService } from './withdrawals.service';

/** The researcher's list of a session's withdrawals. */
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
}
