import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, InternalClient, type AuthUser } from '@uis/kit';
import { internalRoutes, routes, type AnswerOf } from '@uis/proto';
import { UsersRepository } from './users.repository';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersRepository,
    private readonly internal: InternalClient,
  ) {}

  /**
   * The scope picker's directory: only the people of the caller's own sessions (a researcher of
   * another lab learns nobody's e-mail from it; anyone else is added by typing the address).
   */
  @Endpoint(routes.getAllParticipants)
  async getAllParticipants(@CurrentUser() caller: AuthUser): Promise<AnswerOf<'getAllParticipants'>> {
    const { emails } = await this.internal.call(internalRoutes.studiesResearcherPeople, {
      userId: caller.id,
    });
    return { participants: await this.users.participantsAmong(emails) };
  }
}
