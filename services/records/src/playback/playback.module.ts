import { Module } from '@nestjs/common';
import { PlaybackController } from './playback.controller';
import { PlaybackInternalController } from './playback.internal.controller';
import { PlaybackRepository } from './playback.repository';
import { PlaybackService } from './playback.service';

/** The researcher's playback log: realtime's appends and the owner's list. */
@Module({
  controllers: [PlaybackController, PlaybackInternalController],
  providers: [PlaybackRepository, PlaybackService],
  exports: [PlaybackRepository, PlaybackService],
})
export class PlaybackModule {}
