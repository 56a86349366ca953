import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { UserDataService } from './user-data.service';

/** Account deletion, asked by auth (service token only). */
@Controller()
export class UserDataInternalController {
  constructor(private readonly userData: UserDataService) {}

  @InternalEndpoint(internalRoutes.studiesUserDataDelete)
  async deleteUserData(
    @Input() { userId, email }: ParsedInternalRequestOf<'studiesUserDataDelete'>,
  ): Promise<InternalAnswerOf<'studiesUserDataDelete'>> {
    await this.userData.deleteUserData(userId, email);
    return { message: 'The user’s groups and sessions are deleted, and their e-mail left every scope.' };
  }
}
