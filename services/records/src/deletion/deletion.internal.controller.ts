import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { RecordsDeletionService } from './records-deletion.service';

/** Studies deletes sessions, auth deletes accounts (service token only). */
@Controller()
export class DeletionInternalController {
  constructor(private readonly deletion: RecordsDeletionService) {}

  @InternalEndpoint(internalRoutes.recordsSessionDataDelete)
  async deleteSessionData(
    @Input() { sessionIds }: ParsedInternalRequestOf<'recordsSessionDataDelete'>,
  ): Promise<InternalAnswerOf<'recordsSessionDataDelete'>> {
    return this.deletion.deleteSessions(sessionIds);
  }

  @InternalEndpoint(internalRoutes.recordsUserDataDelete)
  async deleteUserData(
    @Input() { userId }: ParsedInternalRequestOf<'recordsUserDataDelete'>,
  ): Promise<InternalAnswerOf<'recordsUserDataDelete'>> {
    return this.deletion.deleteUser(userId);
  }
}
