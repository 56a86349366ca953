import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { PlaybackService } from './playback.service';

/** The playback log, for the session's owner (realtime writes it through the internal route). */
@Controller()
export class PlaybackController {
  constructor(private readonly playback: PlaybackService) {}

  @Endpoint(routes.getPlayback)
  async getPlayback(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getPlayback'>,
  ): Promise<AnswerOf<'getPlayback'>> {
    const { rows, next } = await this.playback.listFor(user, sessionId, after);
    return { playback: rows, next };
  }
}
