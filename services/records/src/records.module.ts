import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '@uis/kit';
import { AuditLogEntity } from './audit/audit-log.entity';
import { AuditLogService } from './audit/audit-log.service';
import { DeviceCheckEntity } from './device-checks/device-check.entity';
import { DeviceChecksController } from './device-checks/device-checks.controller';
import { DeviceChecksService } from './device-checks/device-checks.service';
import { RecordsExportController } from './export/records-export.controller';
import { RecordsExportService } from './export/records-export.service';
import { RecordsDeletionService } from './internal/records-deletion.service';
import { RecordsInternalController } from './internal/records-internal.controller';
import { MessageEntity } from './messages/message.entity';
import { MessagesController } from './messages/messages.controller';
import { MessagesService } from './messages/messages.service';
import { CreateRecordsTables1763856000000 } from './migrations/1763856000000-create-records-tables';
import { TimeAlignedRecords1764000000000 } from './migrations/1764000000000-time-aligned-records';
import { CreateAuditLog1764000000100 } from './migrations/1764000000100-create-audit-log';
import { CreateWithdrawals1795500000000 } from './migrations/1795500000000-create-withdrawals';
import { CreateDeviceChecks1795600000000 } from './migrations/1795600000000-create-device-checks';
import { PerSessionOrder1795700000000 } from './migrations/1795700000000-per-session-order';
import { PixelEntity } from './pixels/pixel.entity';
import { PixelsController } from './pixels/pixels.controller';
import { PixelsService } from './pixels/pixels.service';
import { PlaybackController } from './playback/playback.controller';
import { PlaybackEntity } from './playback/playback.entity';
import { PlaybackService } from './playback/playback.service';
import { RECORDS_CONFIG, type RecordsConfig } from './records.config';
import { StudyExportController } from './study-export/study-export.controller';
import { StudyExportService } from './study-export/study-export.service';
import { StudyParticipantsService } from './study-export/study-participants.service';
import { ConsentExportSource } from './withdrawals/consent-export.source';
import { WithdrawalEntity } from './withdrawals/withdrawal.entity';
import { WithdrawalsController } from './withdrawals/withdrawals.controller';
import { WithdrawalsService } from './withdrawals/withdrawals.service';
import { RecordWriteLimits } from './write-limits';

const entities = [
  MessageEntity,
  PixelEntity,
  PlaybackEntity,
  AuditLogEntity,
  WithdrawalEntity,
  DeviceCheckEntity,
];
export const RECORDS_SCHEMA = 'records';

/** Records's tables: its schema, entities and migrations (the module and the migrate entry). */
export const recordsDatabase = () => ({
  schema: RECORDS_SCHEMA,
  entities,
  migrations: [
    CreateRecordsTables1763856000000,
    TimeAlignedRecords1764000000000,
    CreateAuditLog1764000000100,
    CreateWithdrawals1795500000000,
    CreateDeviceChecks1795600000000,
    PerSessionOrder1795700000000,
  ],
});

@Module({})
export class RecordsModule {
  static forRoot(config: RecordsConfig): DynamicModule {
    return {
      module: RecordsModule,
      imports: [
        DatabaseModule.forService({
          ...recordsDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [
        MessagesController,
        PixelsController,
        PlaybackController,
        RecordsExportController,
        StudyExportController,
        WithdrawalsController,
        DeviceChecksController,
        RecordsInternalController,
      ],
      providers: [
        { provide: RECORDS_CONFIG, useValue: config },
        RecordWriteLimits,
        MessagesService,
        PixelsService,
        PlaybackService,
        RecordsExportService,
        AuditLogService,
        StudyParticipantsService,
        StudyExportService,
        WithdrawalsService,
        ConsentExportSource,
        DeviceChecksService,
        RecordsDeletionService,
      ],
    };
  }
}
