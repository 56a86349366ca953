import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { ConsentService } from '../consent/consent.service';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly consent: ConsentService,
  ) {}

  @Endpoint(routes.getSessions)
  async getSessions(
    @CurrentUser() caller: AuthUser,
    @Input() { groupId }: ParsedRequestOf<'getSessions'>,
  ): Promise<AnswerOf<'getSessions'>> {
    return { sessions: await this.sessions.list(caller, groupId) };
  }

  @Endpoint(routes.createSession)
  async createSession(
    @CurrentUser() caller: AuthUser,
    @Input() input: ParsedRequestOf<'createSession'>,
  ): Promise<AnswerOf<'createSession'>> {
    return { session: await this.sessions.create(caller, input) };
  }

  @Endpoint(routes.deleteSession)
  async deleteSession(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'deleteSession'>,
  ): Promise<AnswerOf<'deleteSession'>> {
    await this.sessions.delete(caller, sessionId);
    return { message: 'Session deleted.' };
  }

  @Endpoint(routes.getSessionInfo)
  async getSessionInfo(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getSessionInfo'>,
  ): Promise<AnswerOf<'getSessionInfo'>> {
    const { info, role } = await this.sessions.info(caller, sessionId);
    const [access] = await this.consent.withPending(
      [{ sessionId, userId: caller.id }],
      [{ role, sessionType: info.type }],
    );
    // Before agreeing, a participant sees what the consent page shows, not what to watch.
    if (access?.consentPending) return { sessionInfo: { ...info, source: '', track: '' } };
    return { sessionInfo: info };
  }

  @Endpoint(routes.editSessionInfo)
  async editSessionInfo(
    @CurrentUser() caller: AuthUser,
    @Input() edit: ParsedRequestOf<'editSessionInfo'>,
  ): Promise<AnswerOf<'editSessionInfo'>> {
    await this.sessions.edit(caller, edit);
    return { message: 'Session updated.' };
  }

  @Endpoint(routes.getParticipantSessions)
  async getParticipantSessions(
    @CurrentUser() caller: AuthUser,
    @Input() { email }: ParsedRequestOf<'getParticipantSessions'>,
  ): Promise<AnswerOf<'getParticipantSessions'>> {
    return { sessions: await this.sessions.participantSessions(caller, email) };
  }
}
