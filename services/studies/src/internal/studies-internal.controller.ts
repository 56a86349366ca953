import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ConsentService } from '../consent/consent.service';
import { GroupsService } from '../groups/groups.service';
import { ParticipationService } from '../participation/participation.service';
import { SessionsService } from '../sessions/sessions.service';
import { UserDataService } from './user-data.service';

/** Service-to-service endpoints (never routed by the gateway; the kit checks the service token). */
@Controller()
export class StudiesInternalController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly groups: GroupsService,
    private readonly userData: UserDataService,
    private readonly participation: ParticipationService,
    private readonly consent: ConsentService,
  ) {}

  @InternalEndpoint(internalRoutes.studiesAccess)
  async access(
    @Input() { sessionId, userId, email }: ParsedInternalRequestOf<'studiesAccess'>,
  ): Promise<InternalAnswerOf<'studiesAccess'>> {
    const access = await this.sessions.access(sessionId, { id: userId, email });
    // With whether a participant must still agree to the consent text (issue 14).
    const [withConsent] = await this.consent.withPending([{ sessionId, userId }], [access]);
    return withConsent!;
  }

  @InternalEndpoint(internalRoutes.studiesAccessBatch)
  async accessBatch(
    @Input() { items }: ParsedInternalRequestOf<'studiesAccessBatch'>,
  ): Promise<InternalAnswerOf<'studiesAccessBatch'>> {
    const checks = items.map(({ sessionId, userId, email }) => ({ sessionId, user: { id: userId, email } }));
    const access = await this.sessions.accessMany(checks);
    return { access: await this.consent.withPending(items, access) };
  }

  @InternalEndpoint(internalRoutes.studiesSessionCompletion)
  async sessionCompletion(
    @Input() { sessionId }: ParsedInternalRequestOf<'studiesSessionCompletion'>,
  ): Promise<InternalAnswerOf<'studiesSessionCompletion'>> {
    return { completionUrl: await this.sessions.completionUrl(sessionId) };
  }

  @InternalEndpoint(internalRoutes.studiesSessionRoster)
  async sessionRoster(
    @Input() { sessionId }: ParsedInternalRequestOf<'studiesSessionRoster'>,
  ): Promise<InternalAnswerOf<'studiesSessionRoster'>> {
    return { people: await this.participation.roster(sessionId) };
  }

  @InternalEndpoint(internalRoutes.studiesResearcherPeople)
  async researcherPeople(
    @Input() { userId }: ParsedInternalRequestOf<'studiesResearcherPeople'>,
  ): Promise<InternalAnswerOf<'studiesResearcherPeople'>> {
    return { emails: await this.participation.peopleOf(userId) };
  }

  @InternalEndpoint(internalRoutes.studiesGroupSessions)
  groupSessions(
    @Input() { groupId, userId }: ParsedInternalRequestOf<'studiesGroupSessions'>,
  ): Promise<InternalAnswerOf<'studiesGroupSessions'>> {
    return this.groups.sessionsFor(groupId, userId);
  }

  @InternalEndpoint(internalRoutes.studiesUserDataDelete)
  async deleteUserData(
    @Input() { userId, email }: ParsedInternalRequestOf<'studiesUserDataDelete'>,
  ): Promise<InternalAnswerOf<'studiesUserDataDelete'>> {
    await this.userData.deleteUserData(userId, email);
    return { message: 'The user’s groups and sessions are deleted, and their e-mail left every scope.' };
  }
}
