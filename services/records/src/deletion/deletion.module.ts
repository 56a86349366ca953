import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeviceChecksModule } from '../device-checks/device-checks.module';
import { ExposureModule } from '../exposure/exposure.module';
import { MessagesModule } from '../messages/messages.module';
import { PixelsModule } from '../pixels/pixels.module';
import { PlaybackModule } from '../playback/playback.module';
import { RecordSequencesRepository } from '../record-sequences.repository';
import { WithdrawalsModule } from '../withdrawals/withdrawals.module';
import { DeletionInternalController } from './deletion.internal.controller';
import { RecordsDeletionService } from './records-deletion.service';

/** Deleting what a deleted session or account leaves in records. */
@Module({
  imports: [
    AuditModule,
    DeviceChecksModule,
    ExposureModule,
    MessagesModule,
    PixelsModule,
    PlaybackModule,
    WithdrawalsModule,
  ],
  controllers: [DeletionInternalController],
  providers: [RecordSequencesRepository, RecordsDeletionService],
})
export class DeletionModule {}
