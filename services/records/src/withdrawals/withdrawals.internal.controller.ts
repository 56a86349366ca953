import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { WithdrawalsService } from './withdrawals.service';

/** Studies carries out a participant's withdrawal (service token only; studies has checked them). */
@Controller()
export class WithdrawalsInternalController {
  constructor(private readonly withdrawals: WithdrawalsService) {}

  @InternalEndpoint(internalRoutes.recordsWithdrawParticipant)
  async withdrawParticipant(
    @Input() { sessionId, ...author }: ParsedInternalRequestOf<'recordsWithdrawParticipant'>,
  ): Promise<InternalAnswerOf<'recordsWithdrawParticipant'>> {
    return { withdrawal: await this.withdrawals.withdraw(sessionId, author) };
  }
}
