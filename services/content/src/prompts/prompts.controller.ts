import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { PromptsService } from './prompts.service';

@Controller()
export class PromptsController {
  constructor(private readonly prompts: PromptsService) {}

  @Endpoint(routes.getPrompts)
  async getPrompts(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getPrompts'>,
  ): Promise<AnswerOf<'getPrompts'>> {
    return { prompts: await this.prompts.list(user, sessionId) };
  }

  @Endpoint(routes.addPrompt)
  async addPrompt(
    @CurrentUser() user: AuthUser,
    @Input() input: ParsedRequestOf<'addPrompt'>,
  ): Promise<AnswerOf<'addPrompt'>> {
    return { prompt: await this.prompts.add(user, input) };
  }

  @Endpoint(routes.editPrompt)
  async editPrompt(
    @CurrentUser() user: AuthUser,
    @Input() input: ParsedRequestOf<'editPrompt'>,
  ): Promise<AnswerOf<'editPrompt'>> {
    await this.prompts.edit(user, input);
    return { message: 'Prompt updated.' };
  }

  @Endpoint(routes.deletePrompt)
  async deletePrompt(
    @CurrentUser() user: AuthUser,
    @Input() { promptId }: ParsedRequestOf<'deletePrompt'>,
  ): Promise<AnswerOf<'deletePrompt'>> {
    await this.prompts.delete(user, promptId);
    return { message: 'Prompt deleted.' };
  }
}
