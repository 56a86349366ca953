import { Module, forwardRef } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { InvitationSender } from './invitation-sender';
import { JoinLinksRepository } from './join-links.repository';
import { ParticipationController } from './participation.controller';
import { ParticipationInternalController } from './participation.internal.controller';
import { ParticipationService } from './participation.service';
import { SessionParticipantsRepository } from './session-participants.repository';

/** Invitations, join links and a session's participants. */
@Module({
  imports: [forwardRef(() => SessionsModule)],
  controllers: [ParticipationController, ParticipationInternalController],
  providers: [SessionParticipantsRepository, JoinLinksRepository, InvitationSender, ParticipationService],
  exports: [SessionParticipantsRepository, InvitationSender, ParticipationService],
})
export class ParticipationModule {}
