import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MessagesController } from './messages.controller';
import { MessagesInternalController } from './messages.internal.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

/** Chat messages: the record panel's routes and realtime's reads and appends. */
@Module({
  imports: [AuditModule],
  controllers: [MessagesController, MessagesInternalController],
  providers: [MessagesRepository, MessagesService],
  exports: [MessagesRepository, MessagesService],
})
export class MessagesModule {}
