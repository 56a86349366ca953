import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '@uis/kit';
import { RecordsExportController } from './export/records-export.controller';
import { RecordsExportService } from './export/records-export.service';
import { RecordsDeletionService } from './internal/records-deletion.service';
import { RecordsInternalController } from './internal/records-internal.controller';
import { MessageEntity } from './messages/message.entity';
import { MessagesController } from './messages/messages.controller';
import { MessagesService } from './messages/messages.service';
import { CreateRecordsTables1763856000000 } from './migrations/1763856000000-create-records-tables';
import { PixelEntity } from './pixels/pixel.entity';
import { PixelsController } from './pixels/pixels.controller';
import { PixelsService } from './pixels/pixels.service';
import { RECORDS_CONFIG, type RecordsConfig } from './records.config';

const entities = [MessageEntity, PixelEntity];
export const RECORDS_SCHEMA = 'records';

@Module({})
export class RecordsModule {
  static forRoot(config: RecordsConfig): DynamicModule {
    return {
      module: RecordsModule,
      imports: [
        DatabaseModule.forService({
          url: config.DATABASE_URL,
          schema: RECORDS_SCHEMA,
          entities,
          migrations: [CreateRecordsTables1763856000000],
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [MessagesController, PixelsController, RecordsExportController, RecordsInternalController],
      providers: [
        { provide: RECORDS_CONFIG, useValue: config },
        MessagesService,
        PixelsService,
        RecordsExportService,
        RecordsDeletionService,
      ],
    };
  }
}
