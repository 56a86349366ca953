import { Module } from '@nestjs/common';
import { ExposureController } from './exposure.controller';
import { ExposureInternalController } from './exposure.internal.controller';
import { ExposureRepository } from './exposure.repository';
import { ExposureService } from './exposure.service';

/** What participants were exposed to: realtime's appends and the owner's list. */
@Module({
  controllers: [ExposureController, ExposureInternalController],
  providers: [ExposureRepository, ExposureService],
  exports: [ExposureRepository, ExposureService],
})
export class ExposureModule {}
