import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { PixelsModule } from '../pixels/pixels.module';
import { PlaybackModule } from '../playback/playback.module';
import { RecordsExportController } from './records-export.controller';
import { RecordsExportService } from './records-export.service';

/** `/exportRecords`: one kind of record of a session as File.csv. */
@Module({
  imports: [MessagesModule, PixelsModule, PlaybackModule],
  controllers: [RecordsExportController],
  providers: [RecordsExportService],
})
export class RecordsExportModule {}
