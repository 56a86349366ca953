import { Module, forwardRef } from '@nestjs/common';
import { ParticipationModule } from '../participation/participation.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ConsentAcceptancesRepository } from './consent-acceptances.repository';
import { ConsentController } from './consent.controller';
import { ConsentInternalController } from './consent.internal.controller';
import { ConsentService } from './consent.service';
import { SessionConsentsRepository } from './session-consents.repository';
import { WithdrawalService } from './withdrawal.service';

/** Consent texts, the participants' agreements, and withdrawals. */
@Module({
  imports: [forwardRef(() => SessionsModule), forwardRef(() => ParticipationModule)],
  controllers: [ConsentController, ConsentInternalController],
  providers: [SessionConsentsRepository, ConsentAcceptancesRepository, ConsentService, WithdrawalService],
  exports: [ConsentService],
})
export class ConsentModule {}
