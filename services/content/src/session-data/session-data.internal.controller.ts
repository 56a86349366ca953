import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { SessionDataService } from './session-data.service';

/** Studies deletes sessions (service token only). */
@Controller()
export class SessionDataInternalController {
  constructor(private readonly sessionData: SessionDataService) {}

  @InternalEndpoint(internalRoutes.contentSessionDataDelete)
  async deleteSessionData(
    @Input() { sessionIds }: ParsedInternalRequestOf<'contentSessionDataDelete'>,
  ): Promise<InternalAnswerOf<'contentSessionDataDelete'>> {
    await this.sessionData.deleteSessions(sessionIds);
    return { message: 'Session data deleted.' };
  }
}
