import { Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule } from '@uis/kit';
import { AuditModule } from './audit/audit.module';
import { RecordCountsModule } from './counts/record-counts.module';
import { RecordsDb } from './db/records-db';
import { DeletionModule } from './deletion/deletion.module';
import { DeviceChecksModule } from './device-checks/device-checks.module';
import { ExposureModule } from './exposure/exposure.module';
import { RecordsExportModule } from './export/records-export.module';
import { MessagesModule } from './messages/messages.module';
import { CreateRecordsTables1763856000000 } from './migrations/1763856000000-create-records-tables';
import { TimeAlignedRecords1764000000000 } from './migrations/1764000000000-time-aligned-records';
import { CreateAuditLog1764000000100 } from './migrations/1764000000100-create-audit-log';
import { CreateWithdrawals1795500000000 } from './migrations/1795500000000-create-withdrawals';
import { CreateDeviceChecks1795600000000 } from './migrations/1795600000000-create-device-checks';
import { PerSessionOrder1795700000000 } from './migrations/1795700000000-per-session-order';
import { MessageOriginalText1795800000000 } from './migrations/1795800000000-message-original-text';
import { LifecyclePlaybackEvents1795800000200 } from './migrations/1795800000200-lifecycle-playback-events';
import { CreateExposureEvents1795900000000 } from './migrations/1795900000000-create-exposure-events';
import { PixelsModule } from './pixels/pixels.module';
import { PlaybackModule } from './playback/playback.module';
import { RECORDS_CONFIG, type RecordsConfig } from './records.config';
import { StudyExportModule } from './study-export/study-export.module';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';
import { RecordWriteLimits } from './write-limits';

export const RECORDS_SCHEMA = 'records';

/**
 * Records's tables: its schema and migrations (the module and the migrate entry). No entities: the
 * repositories write their SQL by hand (README, "Code layout and query style").
 */
export const recordsDatabase = () => ({
  schema: RECORDS_SCHEMA,
  entities: [],
  migrations: [
    CreateRecordsTables1763856000000,
    TimeAlignedRecords1764000000000,
    CreateAuditLog1764000000100,
    CreateWithdrawals1795500000000,
    CreateDeviceChecks1795600000000,
    PerSessionOrder1795700000000,
    MessageOriginalText1795800000000,
    LifecyclePlaybackEvents1795800000200,
    CreateExposureEvents1795900000000,
  ],
});

/** What every feature module uses: the validated environment, the database and the write limits. */
const coreModule = (config: RecordsConfig): DynamicModule => ({
  module: class RecordsCoreModule {},
  global: true,
  providers: [{ provide: RECORDS_CONFIG, useValue: config }, RecordsDb, RecordWriteLimits],
  exports: [RECORDS_CONFIG, RecordsDb, RecordWriteLimits],
});

/** The database and records' features, each a module of its own. */
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
        coreModule(config),
        MessagesModule,
        PixelsModule,
        PlaybackModule,
        AuditModule,
        DeviceChecksModule,
        ExposureModule,
        WithdrawalsModule,
        RecordsExportModule,
        StudyExportModule,
        RecordCountsModule,
        DeletionModule,
      ],
    };
  }
}
