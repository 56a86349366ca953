import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { ParticipationService } from './participation.service';

/** Invitations, join links and a session's participants. */
@Controller()
export class ParticipationController {
  constructor(private readonly participation: ParticipationService) {}

  @Endpoint(routes.getSessionPeople)
  async getSessionPeople(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getSessionPeople'>,
  ): Promise<AnswerOf<'getSessionPeople'>> {
    return { people: await this.participation.people(caller, sessionId) };
  }

  @Endpoint(routes.resendInvitation)
  async resendInvitation(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, email }: ParsedRequestOf<'resendInvitation'>,
  ): Promise<AnswerOf<'resendInvitation'>> {
    await this.participation.resend(caller, sessionId, email);
    return { message: `The invitation is on its way to ${email} again.` };
  }

  @Endpoint(routes.getJoinLink)
  async getJoinLink(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getJoinLink'>,
  ): Promise<AnswerOf<'getJoinLink'>> {
    return { joinLink: await this.participation.joinLink(caller, sessionId) };
  }

  @Endpoint(routes.createJoinLink)
  async createJoinLink(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, maxParticipants }: ParsedRequestOf<'createJoinLink'>,
  ): Promise<AnswerOf<'createJoinLink'>> {
    return { joinLink: await this.participation.createJoinLink(caller, sessionId, maxParticipants) };
  }

  @Endpoint(routes.revokeJoinLink)
  async revokeJoinLink(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'revokeJoinLink'>,
  ): Promise<AnswerOf<'revokeJoinLink'>> {
    await this.participation.revokeJoinLink(caller, sessionId);
    return { message: 'The join link is revoked: it adds nobody any more.' };
  }

  /** Public: the landing page of a join link, before anyone signs in (the token is the secret). */
  @Endpoint(routes.getJoinLinkInfo)
  getJoinLinkInfo(
    @Input() { token }: ParsedRequestOf<'getJoinLinkInfo'>,
  ): Promise<AnswerOf<'getJoinLinkInfo'>> {
    return this.participation.linkInfo(token);
  }

  @Endpoint(routes.joinSession)
  async joinSession(
    @CurrentUser() caller: AuthUser,
    @Input() { token, panelIds }: ParsedRequestOf<'joinSession'>,
  ): Promise<AnswerOf<'joinSession'>> {
    return { sessionId: await this.participation.join(caller, token, panelIds) };
  }

  @Endpoint(routes.enterSession)
  async enterSession(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'enterSession'>,
  ): Promise<AnswerOf<'enterSession'>> {
    await this.participation.enter(caller, sessionId);
    return { message: 'You take part in this session.' };
  }
}
