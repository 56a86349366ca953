import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { MessagesService } from '../messages/messages.service';
import { PixelsService } from '../pixels/pixels.service';
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
    private readonly deletion: RecordsDeletionService,
  ) {}

  @InternalEndpoint(internalRoutes.recordsListMessages)
  async listMessages(
    @Input() { sessionId }: ParsedInternalRequestOf<'recordsListMessages'>,
  ): Promise<InternalAnswerOf<'recordsListMessages'>> {
    return { messages: await this.messages.list(sessionId) };
  }

  @InternalEndpoint(internalRoutes.recordsAppendMessage)
  async appendMessage(
    @Input() input: ParsedInternalRequestOf<'recordsAppendMessage'>,
  ): Promise<InternalAnswerOf<'recordsAppendMessage'>> {
    return { message: await this.messages.append(input) };
  }

  @InternalEndpoint(internalRoutes.recordsAppendPixel)
  async appendPixel(
    @Input() input: ParsedInternalRequestOf<'recordsAppendPixel'>,
  ): Promise<InternalAnswerOf<'recordsAppendPixel'>> {
    return { pixel: await this.pixels.append(input) };
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
