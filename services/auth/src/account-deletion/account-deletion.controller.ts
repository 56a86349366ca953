import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { AccountDeletionService } from './account-deletion.service';

@Controller()
export class AccountDeletionController {
  constructor(private readonly deletion: AccountDeletionService) {}

  @Endpoint(routes.deleteUser)
  async deleteUser(
    @CurrentUser() caller: AuthUser,
    @Input() { email }: ParsedRequestOf<'deleteUser'>,
  ): Promise<AnswerOf<'deleteUser'>> {
    await this.deletion.deleteOwnAccount(caller, email);
    return { message: 'Your account and everything it held have been deleted.' };
  }
}
