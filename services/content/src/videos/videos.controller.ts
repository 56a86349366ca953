import { Controller, Req } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import type { Request } from 'express';
import { VIDEO_DELETED_TEXT, VideosService } from './videos.service';

@Controller()
export class VideosController {
  constructor(private readonly videos: VideosService) {}

  @Endpoint(routes.getVideoInfo)
  getVideoInfo(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getVideoInfo'>,
  ): Promise<AnswerOf<'getVideoInfo'>> {
    return this.videos.info(user, sessionId);
  }

  /** Multipart: the form is read as a stream by the service, so no @Input() here. */
  @Endpoint(routes.uploadVideo)
  uploadVideo(@CurrentUser() user: AuthUser, @Req() req: Request): Promise<AnswerOf<'uploadVideo'>> {
    return this.videos.upload(user, req);
  }

  @Endpoint(routes.deleteVideo)
  async deleteVideo(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'deleteVideo'>,
  ): Promise<AnswerOf<'deleteVideo'>> {
    await this.videos.delete(user, sessionId);
    return { message: VIDEO_DELETED_TEXT };
  }
}
