import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { VIDEO_DELETED_TEXT, VideosService } from './videos.service';

/** Studies removes a session's video when its type leaves video; records' exports read its name (service token only). */
@Controller()
export class VideosInternalController {
  constructor(private readonly videos: VideosService) {}

  @InternalEndpoint(internalRoutes.contentVideoDelete)
  async deleteVideo(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentVideoDelete'>,
  ): Promise<InternalAnswerOf<'contentVideoDelete'>> {
    await this.videos.remove(sessionId);
    return { message: VIDEO_DELETED_TEXT };
  }

  @InternalEndpoint(internalRoutes.contentSessionVideo)
  async sessionVideo(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentSessionVideo'>,
  ): Promise<InternalAnswerOf<'contentSessionVideo'>> {
    return { name: (await this.videos.find(sessionId))?.name ?? null };
  }
}
