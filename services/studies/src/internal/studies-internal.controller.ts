import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { SessionsService } from '../sessions/sessions.service';
import { UserDataService } from './user-data.service';

/** Service-to-service endpoints (never routed by the gateway; the kit checks the service token). */
@Controller()
export class StudiesInternalController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly userData: UserDataService,
  ) {}

  @InternalEndpoint(internalRoutes.studiesAccess)
  access(
    @Input() { sessionId, userId, email }: ParsedInternalRequestOf<'studiesAccess'>,
  ): Promise<InternalAnswerOf<'studiesAccess'>> {
    return this.sessions.access(sessionId, { id: userId, email });
  }

  @InternalEndpoint(internalRoutes.studiesUserDataDelete)
  async deleteUserData(
    @Input() { userId, email }: ParsedInternalRequestOf<'studiesUserDataDelete'>,
  ): Promise<InternalAnswerOf<'studiesUserDataDelete'>> {
    await this.userData.deleteUserData(userId, email);
    return { message: 'The user’s groups and sessions are deleted, and their e-mail left every scope.' };
  }
}
