import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { MagicLinksService } from '../sign-in/magic-links.service';
import { InvitationLimiter } from './invitation-limiter';
import { ownWords, researcherNamed } from './researcher-words';

/** Studies asks for invitation mails here (auth owns the sign-in links and the mail queue). */
@Controller()
export class InvitationsInternalController {
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
    // The mail quotes the session's title; the researcher's name is quoted and labelled here.
    await this.links.invite(email, sessionId, ownWords(sessionTitle), researcherNamed(researcherName));
    return { message: `An invitation is on its way to ${email}.` };
  }
}
