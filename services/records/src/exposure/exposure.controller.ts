import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { ExposureService } from './exposure.service';

/** The exposure log, for the session's owner (realtime writes it through the internal route). */
@Controller()
export class ExposureController {
  constructor(private readonly exposure: ExposureService) {}

  @Endpoint(routes.getExposureEvents)
  async getExposureEvents(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getExposureEvents'>,
  ): Promise<AnswerOf<'getExposureEvents'>> {
    const { rows, next } = await this.exposure.listFor(user, sessionId, after);
    return { events: rows, next };
  }
}
