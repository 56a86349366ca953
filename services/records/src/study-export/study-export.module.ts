import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeviceChecksModule } from '../device-checks/device-checks.module';
import { MessagesModule } from '../messages/messages.module';
import { PixelsModule } from '../pixels/pixels.module';
import { PlaybackModule } from '../playback/playback.module';
import { WithdrawalsModule } from '../withdrawals/withdrawals.module';
import { ParticipantsRepository } from './participants.repository';
import { StudyExportController } from './study-export.controller';
import { StudyExportService } from './study-export.service';
import { StudyParticipantsService } from './study-participants.service';

/** `/exportStudy`: a session or a group as one verifiable ZIP. */
@Module({
  imports: [AuditModule, DeviceChecksModule, MessagesModule, PixelsModule, PlaybackModule, WithdrawalsModule],
  controllers: [StudyExportController],
  providers: [ParticipantsRepository, StudyParticipantsService, StudyExportService],
})
export class StudyExportModule {}
