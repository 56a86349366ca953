import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { ParticipationService } from '../participation/participation.service';
import { ConsentService } from './consent.service';
import { WithdrawalService } from './withdrawal.service';

/** Consent texts, agreements and withdrawals; the rules are the services'. */
@Controller()
export class ConsentController {
  constructor(
    private readonly consent: ConsentService,
    private readonly withdrawals: WithdrawalService,
    private readonly participation: ParticipationService,
  ) {}

  @Endpoint(routes.getSessionConsent)
  getSessionConsent(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getSessionConsent'>,
  ): Promise<AnswerOf<'getSessionConsent'>> {
    return this.consent.forOwner(caller, sessionId);
  }

  @Endpoint(routes.setSessionConsent)
  setSessionConsent(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, text }: ParsedRequestOf<'setSessionConsent'>,
  ): Promise<AnswerOf<'setSessionConsent'>> {
    return this.consent.setText(caller, sessionId, text);
  }

  @Endpoint(routes.getMyConsent)
  async getMyConsent(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getMyConsent'>,
  ): Promise<AnswerOf<'getMyConsent'>> {
    const consent = await this.consent.forMember(caller, sessionId);
    return { ...consent, mustConfirm: await this.participation.mustConfirm(caller, sessionId) };
  }

  @Endpoint(routes.acceptConsent)
  acceptConsent(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, sha256 }: ParsedRequestOf<'acceptConsent'>,
  ): Promise<AnswerOf<'acceptConsent'>> {
    return this.consent.accept(caller, sessionId, sha256);
  }

  @Endpoint(routes.withdrawFromSession)
  async withdrawFromSession(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'withdrawFromSession'>,
  ): Promise<AnswerOf<'withdrawFromSession'>> {
    return { withdrawal: await this.withdrawals.withdraw(caller, sessionId) };
  }
}
