import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { PlaybackService } from './playback.service';

/** Realtime's playback log appends (service token only; realtime has checked the researcher). */
@Controller()
export class PlaybackInternalController {
  constructor(private readonly playback: PlaybackService) {}

  @InternalEndpoint(internalRoutes.recordsAppendPlayback)
  async appendPlayback(
    @Input() input: ParsedInternalRequestOf<'recordsAppendPlayback'>,
  ): Promise<InternalAnswerOf<'recordsAppendPlayback'>> {
    return { playback: await this.playback.append(input) };
  }
}
