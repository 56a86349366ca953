import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { SessionAccessWatch } from './session-access-watch';

/** Service-to-service endpoints (service token only): studies' notices about who may be in sessions. */
@Controller()
export class LiveSessionInternalController {
  constructor(private readonly accessWatch: SessionAccessWatch) {}

  @InternalEndpoint(internalRoutes.realtimeSessionAccessChanged)
  async sessionAccessChanged(
    @Input() { sessionIds, deleted }: ParsedInternalRequestOf<'realtimeSessionAccessChanged'>,
  ): Promise<InternalAnswerOf<'realtimeSessionAccessChanged'>> {
    await this.accessWatch.changed(sessionIds, deleted);
    return { message: 'Live members of those sessions checked.' };
  }
}
