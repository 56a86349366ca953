import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeviceChecksModule } from '../device-checks/device-checks.module';
import { ExposureModule } from '../exposure/exposure.module';
import { MessagesModule } from '../messages/messages.module';
import { PixelsModule } from '../pixels/pixels.module';
import { PlaybackModule } from '../playback/playback.module';
import { WithdrawalsModule } from '../withdrawals/withdrawals.module';
import { ExportSources } from './export-sources';
import { ParticipantsRepository } from './participants.repository';
import { RecordsExportController } from './records-export.controller';
import { RecordsExportService } from './records-export.service';
import { SessionPeople } from './session-people';

/** The exports' tables (ExportSources, which the study export uses too), and `/exportRecords`: one table of a session as CSV. */
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
  controllers: [RecordsExportController],
  providers: [ParticipantsRepository, SessionPeople, ExportSources, RecordsExportService],
  exports: [ExportSources],
})
export class RecordsExportModule {}
