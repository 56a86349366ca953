import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ParticipationService } from './participation.service';

/** A session's roster and a researcher's people, for records and auth (service token only). */
@Controller()
export class ParticipationInternalController {
  constructor(private readonly participation: ParticipationService) {}

  @InternalEndpoint(internalRoutes.studiesSessionRoster)
  async sessionRoster(
    @Input() { sessionId }: ParsedInternalRequestOf<'studiesSessionRoster'>,
  ): Promise<InternalAnswerOf<'studiesSessionRoster'>> {
    return { people: await this.participation.roster(sessionId) };
  }

  @InternalEndpoint(internalRoutes.studiesJoinLinkOwner)
  joinLinkOwner(
    @Input() { token }: ParsedInternalRequestOf<'studiesJoinLinkOwner'>,
  ): Promise<InternalAnswerOf<'studiesJoinLinkOwner'>> {
    return this.participation.linkOwner(token);
  }

  @InternalEndpoint(internalRoutes.studiesResearcherPeople)
  async researcherPeople(
    @Input() { userId }: ParsedInternalRequestOf<'studiesResearcherPeople'>,
  ): Promise<InternalAnswerOf<'studiesResearcherPeople'>> {
    return { emails: await this.participation.peopleOf(userId) };
  }
}
