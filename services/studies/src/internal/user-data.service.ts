import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { GroupsService } from '../groups/groups.service';
import { SessionsService } from '../sessions/sessions.service';

/**
 * Account deletion (auth calls this before it deletes the account): the user's groups go through
 * the same path as /deleteGroup, so content and records delete those sessions' data first; then
 * the e-mail leaves every other researcher's scope. Both halves are idempotent.
 */
@Injectable()
export class UserDataService {
  constructor(
    private readonly groups: GroupsService,
    private readonly sessions: SessionsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deleteUserData(userId: string, email: string): Promise<void> {
    const groupIds = await this.groups.idsOwnedBy(userId);
    await this.groups.deleteGroups(groupIds);
    await this.sessions.removeFromScopes(email);
    this.logger.info({ userId, groups: groupIds.length }, 'user data deleted');
  }
}
