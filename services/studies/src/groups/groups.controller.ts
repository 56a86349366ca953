import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { GroupsService } from './groups.service';

@Controller()
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Endpoint(routes.getGroups)
  async getGroups(
    @CurrentUser() caller: AuthUser,
    @Input() { email }: ParsedRequestOf<'getGroups'>,
  ): Promise<AnswerOf<'getGroups'>> {
    return { groups: await this.groups.list(caller, email) };
  }

  @Endpoint(routes.createGroup)
  async createGroup(
    @CurrentUser() caller: AuthUser,
    @Input() input: ParsedRequestOf<'createGroup'>,
  ): Promise<AnswerOf<'createGroup'>> {
    return { group: await this.groups.create(caller, input) };
  }

  @Endpoint(routes.editGroup)
  async editGroup(
    @CurrentUser() caller: AuthUser,
    @Input() { groupId, title }: ParsedRequestOf<'editGroup'>,
  ): Promise<AnswerOf<'editGroup'>> {
    await this.groups.rename(caller, groupId, title);
    return { message: 'Group renamed.' };
  }

  @Endpoint(routes.deleteGroup)
  async deleteGroup(
    @CurrentUser() caller: AuthUser,
    @Input() { groupId }: ParsedRequestOf<'deleteGroup'>,
  ): Promise<AnswerOf<'deleteGroup'>> {
    await this.groups.delete(caller, groupId);
    return { message: 'Group deleted with its sessions.' };
  }
}
