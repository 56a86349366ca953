import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { MagicLinksService } from '../sign-in/magic-links.service';
import { InvitationLimiter } from './invitation-limiter';

/** Studies asks for invitation mails here (auth owns the sign-in links and the mail queue). */
@Controller()
export class InvitationsController {
  constructor(
    private readonly links: MagicLinksService,
    private readonly limiter: InvitationLimiter,
  ) {}

  @InternalEndpoint(internalRoutes.authSendInvitation)
  async send(
    @Input()
    { sessionId, email, sessionTitle, researcherName }: ParsedInternalRequestOf<'authSendInvitation'>,
  ): Promise<InternalAnswerOf<'authSendInvitation'>> {
    await this.limiter.consume(sessionId, email);
    await this.links.invite(email, sessionId, sessionTitle, researcherName);
    return { message: `An invitation is on its way to ${email}.` };
  }
}
