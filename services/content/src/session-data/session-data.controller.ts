import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { PromptsService } from '../prompts/prompts.service';
import { VIDEO_DELETED_TEXT, VideosService } from '../videos/videos.service';
import { SessionDataService } from './session-data.service';

/** Service-to-service endpoints (service token only): studies deletes, records exports. */
@Controller()
export class SessionDataController {
  constructor(
    private readonly sessionData: SessionDataService,
    private readonly videos: VideosService,
    private readonly prompts: PromptsService,
  ) {}

  @InternalEndpoint(internalRoutes.contentSessionDataDelete)
  async deleteSessionData(
    @Input() { sessionIds }: ParsedInternalRequestOf<'contentSessionDataDelete'>,
  ): Promise<InternalAnswerOf<'contentSessionDataDelete'>> {
    await this.sessionData.deleteSessions(sessionIds);
    return { message: 'Session data deleted.' };
  }

  @InternalEndpoint(internalRoutes.contentVideoDelete)
  async deleteVideo(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentVideoDelete'>,
  ): Promise<InternalAnswerOf<'contentVideoDelete'>> {
    await this.videos.remove(sessionId);
    return { message: VIDEO_DELETED_TEXT };
  }

  @InternalEndpoint(internalRoutes.contentListPrompts)
  async listPrompts(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentListPrompts'>,
  ): Promise<InternalAnswerOf<'contentListPrompts'>> {
    return { prompts: await this.prompts.listBySession(sessionId) };
  }
}
