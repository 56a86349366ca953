import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ActionsRepository } from './actions.repository';

/** Records' exports read a session's actions (service token only). */
@Controller()
export class ActionsInternalController {
  constructor(private readonly actions: ActionsRepository) {}

  @InternalEndpoint(internalRoutes.contentListActions)
  async listActions(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentListActions'>,
  ): Promise<InternalAnswerOf<'contentListActions'>> {
    return { actions: await this.actions.listBySession(sessionId) };
  }
}
