import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { MessagesService } from '../messages/messages.service';
import { PixelsService } from '../pixels/pixels.service';
import { PlaybackService } from '../playback/playback.service';
import { RecordsDeletionService } from './records-deletion.service';

/**
 * Service-to-service endpoints (service token only). Realtime has checked the user and the session
 * before it appends, so the author in the payload is trusted here.
 */
@Controller()
export class RecordsInternalController {
  constructor(
    private readonly messages: MessagesService,
    private readonly pixels: PixelsService,
    private readonly playback: PlaybackService,
    private readonly deletion: RecordsDeletionService,
  ) {}

  @InternalEndpoint(internalRoutes.recordsListMessages)
  listMessages(
    @Input() { sessionId, before, limit }: ParsedInternalRequestOf<'recordsListMessages'>,
  ): Promise<InternalAnswerOf<'recordsListMessages'>> {
    return this.messages.page(sessionId, { before, limit });
  }

  @InternalEndpoint(internalRoutes.recordsLatestMessages)
  async latestMessages(
    @Input() { sessionIds, limit }: ParsedInternalRequestOf<'recordsLatestMessages'>,
  ): Promise<InternalAnswerOf<'recordsLatestMessages'>> {
    return { pages: await this.messages.latestPages(sessionIds, limit) };
  }

  @InternalEndpoint(internalRoutes.recordsAppendMessages)
  async appendMessages(
    @Input() { items }: ParsedInternalRequestOf<'recordsAppendMessages'>,
  ): Promise<InternalAnswerOf<'recordsAppendMessages'>> {
    return { messages: await this.messages.appendMany(items) };
  }

  @InternalEndpoint(internalRoutes.recordsAppendPixel)
  async appendPixel(
    @Input() input: ParsedInternalRequestOf<'recordsAppendPixel'>,
  ): Promise<InternalAnswerOf<'recordsAppendPixel'>> {
    return { pixel: await this.pixels.append(input) };
  }

  @InternalEndpoint(internalRoutes.recordsAppendPlayback)
  async appendPlayback(
    @Input() input: ParsedInternalRequestOf<'recordsAppendPlayback'>,
  ): Promise<InternalAnswerOf<'recordsAppendPlayback'>> {
    return { playback: await this.playback.append(input) };
  }

  @InternalEndpoint(internalRoutes.recordsSessionDataDelete)
  async deleteSessionData(
    @Input() { sessionIds }: ParsedInternalRequestOf<'recordsSessionDataDelete'>,
  ): Promise<InternalAnswerOf<'recordsSessionDataDelete'>> {
    return this.deletion.deleteSessions(sessionIds);
  }

  @InternalEndpoint(internalRoutes.recordsUserDataDelete)
  async deleteUserData(
    @Input() { userId }: ParsedInternalRequestOf<'recordsUserDataDelete'>,
  ): Promise<InternalAnswerOf<'recordsUserDataDelete'>> {
    return this.deletion.deleteUser(userId);
  }
}
