import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { ActionsService } from './actions.service';

@Controller()
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Endpoint(routes.getActions)
  async getActions(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getActions'>,
  ): Promise<AnswerOf<'getActions'>> {
    return { actions: await this.actions.list(user, sessionId) };
  }

  @Endpoint(routes.addAction)
  async addAction(
    @CurrentUser() user: AuthUser,
    @Input() input: ParsedRequestOf<'addAction'>,
  ): Promise<AnswerOf<'addAction'>> {
    return { action: await this.actions.add(user, input) };
  }

  @Endpoint(routes.editAction)
  async editAction(
    @CurrentUser() user: AuthUser,
    @Input() input: ParsedRequestOf<'editAction'>,
  ): Promise<AnswerOf<'editAction'>> {
    await this.actions.edit(user, input);
    return { message: 'Action updated.' };
  }

  @Endpoint(routes.deleteAction)
  async deleteAction(
    @CurrentUser() user: AuthUser,
    @Input() { actionId }: ParsedRequestOf<'deleteAction'>,
  ): Promise<AnswerOf<'deleteAction'>> {
    await this.actions.delete(user, actionId);
    return { message: 'Action deleted.' };
  }
}
