import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { GroupsService } from './groups.service';

/** A group's sessions for records' study export (service token only). */
@Controller()
export class GroupsInternalController {
  constructor(private readonly groups: GroupsService) {}

  @InternalEndpoint(internalRoutes.studiesGroupSessions)
  groupSessions(
    @Input() { groupId, userId }: ParsedInternalRequestOf<'studiesGroupSessions'>,
  ): Promise<InternalAnswerOf<'studiesGroupSessions'>> {
    return this.groups.sessionsFor(groupId, userId);
  }
}
