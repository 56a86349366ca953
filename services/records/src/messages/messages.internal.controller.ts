import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { MessagesService } from './messages.service';

/**
 * Realtime's chat reads and appends (service token only). Realtime has checked the user and the
 * session before it appends, so the author in the payload is trusted here.
 */
@Controller()
export class MessagesInternalController {
  constructor(private readonly messages: MessagesService) {}

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
}
