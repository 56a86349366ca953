import { Module } from '@nestjs/common';
import { RoomStateModule } from '../room-state/room-state.module';
import { ExposureLimiter } from './exposure-limiter';
import { ExposureLog } from './exposure-log';

/** What participants were exposed to, appended to records' exposure log. */
@Module({
  imports: [RoomStateModule],
  providers: [ExposureLog, ExposureLimiter],
  exports: [ExposureLog, ExposureLimiter],
})
export class ExposureModule {}
