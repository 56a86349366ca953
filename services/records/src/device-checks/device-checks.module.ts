import { Module } from '@nestjs/common';
import { DeviceChecksController } from './device-checks.controller';
import { DeviceChecksRepository } from './device-checks.repository';
import { DeviceChecksService } from './device-checks.service';

/** Pre-session device checks. */
@Module({
  controllers: [DeviceChecksController],
  providers: [DeviceChecksRepository, DeviceChecksService],
  exports: [DeviceChecksRepository, DeviceChecksService],
})
export class DeviceChecksModule {}
