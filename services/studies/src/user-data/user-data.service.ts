import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { ConsentService } from '../consent/consent.service';
import { GroupsService } from '../groups/groups.service';
import { SessionParticipantsRepository } from '../participation/session-participants.repository';
import { SessionsService } from '../sessions/sessions.service';

/**
 * Account deletion (auth calls this before it deletes the account): the user's groups go through
 * the same path as /deleteGroup, so content and records delete those sessions' data first; then
 * the e-mail leaves every other researcher's scope (with what was kept of its invitations, joins
 * and panel ids) and their agreements to consent texts go. All of
 * it is idempotent.
 */
@Injectable()
export class UserDataService {
  constructor(
    private readonly groups: GroupsService,
    private readonly sessions: SessionsService,
    private readonly consent: ConsentService,
    private readonly participants: SessionParticipantsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deleteUserData(userId: string, email: string): Promise<void> {
    const groupIds = await this.groups.idsOwnedBy(userId);
    await this.groups.deleteGroups(groupIds);
    await this.sessions.removeFromScopes(email);
    await this.participants.forget(email);
    await this.consent.forgetUser(userId);
    this.logger.info({ userId, groups: groupIds.length }, 'user data deleted');
  }
}
