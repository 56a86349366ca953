import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, InternalClient, type AuthUser } from '@uis/kit';
import { internalRoutes, routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { AccountDeletionService } from './account-deletion.service';
import { UsersService } from './users.service';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly deletion: AccountDeletionService,
    private readonly internal: InternalClient,
  ) {}

  @Endpoint(routes.deleteUser)
  async deleteUser(
    @CurrentUser() caller: AuthUser,
    @Input() { email }: ParsedRequestOf<'deleteUser'>,
  ): Promise<AnswerOf<'deleteUser'>> {
    await this.deletion.deleteOwnAccount(caller, email);
    return { message: 'Your account and everything it held have been deleted.' };
  }

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
