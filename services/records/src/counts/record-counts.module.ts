import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { OwnedSessions } from '../owned-sessions';
import { PixelsModule } from '../pixels/pixels.module';
import { RecordCountsController } from './record-counts.controller';
import { RecordCountsService } from './record-counts.service';

/** `/getRecordCounts`: what a session's or a group's deletion loses of its records. */
@Module({
  imports: [MessagesModule, PixelsModule],
  controllers: [RecordCountsController],
  providers: [OwnedSessions, RecordCountsService],
})
export class RecordCountsModule {}
