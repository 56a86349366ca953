import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ConsentService } from '../consent/consent.service';
import { SessionsService } from './sessions.service';

/** What other services ask of a session (never routed by the gateway; the kit checks the service token). */
@Controller()
export class SessionsInternalController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly consent: ConsentService,
  ) {}

  @InternalEndpoint(internalRoutes.studiesAccess)
  async access(
    @Input() { sessionId, userId, email }: ParsedInternalRequestOf<'studiesAccess'>,
  ): Promise<InternalAnswerOf<'studiesAccess'>> {
    const access = await this.sessions.access(sessionId, { id: userId, email });
    // With whether a participant must still agree to the consent text.
    const [withConsent] = await this.consent.withPending([{ sessionId, userId }], [access]);
    return withConsent!;
  }

  @InternalEndpoint(internalRoutes.studiesAccessBatch)
  async accessBatch(
    @Input() { items }: ParsedInternalRequestOf<'studiesAccessBatch'>,
  ): Promise<InternalAnswerOf<'studiesAccessBatch'>> {
    const checks = items.map(({ sessionId, userId, email }) => ({ sessionId, user: { id: userId, email } }));
    const access = await this.sessions.accessMany(checks);
    return { access: await this.consent.withPending(items, access) };
  }

  @InternalEndpoint(internalRoutes.studiesSessionLifecycle)
  sessionLifecycle(
    @Input() { sessionId, change }: ParsedInternalRequestOf<'studiesSessionLifecycle'>,
  ): Promise<InternalAnswerOf<'studiesSessionLifecycle'>> {
    return this.sessions.changeState(sessionId, change);
  }
}
