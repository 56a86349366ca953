import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { PixelsController } from './pixels.controller';
import { PixelsInternalController } from './pixels.internal.controller';
import { PixelsRepository } from './pixels.repository';
import { PixelsService } from './pixels.service';

/** Clicks on the video area: the owner's routes and realtime's appends. */
@Module({
  imports: [AuditModule],
  controllers: [PixelsController, PixelsInternalController],
  providers: [PixelsRepository, PixelsService],
  exports: [PixelsRepository, PixelsService],
})
export class PixelsModule {}
