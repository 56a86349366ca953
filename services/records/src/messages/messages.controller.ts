import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { MessagesService } from './messages.service';

/** Spec section 7's message calls. `name` in a payload is ignored: the caller's own name is recorded. */
@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Endpoint(routes.getMessages)
  async getMessages(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getMessages'>,
  ): Promise<AnswerOf<'getMessages'>> {
    const { rows, next } = await this.messages.listFor(user, sessionId, after);
    return { messages: rows, next };
  }

  @Endpoint(routes.addMessage)
  async addMessage(
    @CurrentUser() user: AuthUser,
    // `name` is dropped: the recorded name is the caller's own.
    @Input() { name: _name, sessionId, ...message }: ParsedRequestOf<'addMessage'>,
  ): Promise<AnswerOf<'addMessage'>> {
    return { message: await this.messages.addFor(user, sessionId, message) };
  }

  @Endpoint(routes.editMessage)
  async editMessage(
    @CurrentUser() user: AuthUser,
    @Input() { messageId, message }: ParsedRequestOf<'editMessage'>,
  ): Promise<AnswerOf<'editMessage'>> {
    await this.messages.editFor(user, messageId, message);
    return { message: 'Message updated.' };
  }

  @Endpoint(routes.deleteMessage)
  async deleteMessage(
    @CurrentUser() user: AuthUser,
    @Input() { messageId }: ParsedRequestOf<'deleteMessage'>,
  ): Promise<AnswerOf<'deleteMessage'>> {
    await this.messages.deleteFor(user, messageId);
    return { message: 'Message deleted.' };
  }
}
