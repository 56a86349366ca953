import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { PromptsService } from './prompts.service';

/** Records' exports read a session's prompts (service token only). */
@Controller()
export class PromptsInternalController {
  constructor(private readonly prompts: PromptsService) {}

  @InternalEndpoint(internalRoutes.contentListPrompts)
  async listPrompts(
    @Input() { sessionId }: ParsedInternalRequestOf<'contentListPrompts'>,
  ): Promise<InternalAnswerOf<'contentListPrompts'>> {
    return { prompts: await this.prompts.listBySession(sessionId) };
  }
}
