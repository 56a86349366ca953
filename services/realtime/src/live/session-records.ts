import { Injectable } from '@nestjs/common';
import { InternalClient, type AuthUser } from '@uis/kit';
import {
  internalRoutes,
  orderMessages,
  type InternalRequestOf,
  type MessageRecord,
  type PixelRecord,
} from '@uis/proto';

/** Who an append is recorded for: the socket's signed-in user, never a name the payload claims. */
const authorOf = (user: AuthUser) => ({ userId: user.id, email: user.email, name: user.name });

type PixelInput = Omit<InternalRequestOf<'recordsAppendPixel'>, 'userId' | 'email' | 'name'>;

/** Records owns the messages and clicks: realtime reads and appends them through its internal routes. */
@Injectable()
export class SessionRecords {
  constructor(private readonly internal: InternalClient) {}

  /** The session's whole chat, in the live protocol's order. */
  async messages(sessionId: string): Promise<MessageRecord[]> {
    const { messages } = await this.internal.call(internalRoutes.recordsListMessages, { sessionId });
    return orderMessages(messages);
  }

  /** Stored (committed) when this resolves: only then may anyone see or be told of it. */
  async appendMessage(user: AuthUser, sessionId: string, message: string): Promise<MessageRecord> {
    const answer = await this.internal.call(internalRoutes.recordsAppendMessage, {
      sessionId,
      ...authorOf(user),
      message,
    });
    return answer.message;
  }

  async appendPixel(user: AuthUser, pixel: PixelInput): Promise<PixelRecord> {
    const answer = await this.internal.call(internalRoutes.recordsAppendPixel, {
      ...pixel,
      ...authorOf(user),
    });
    return answer.pixel;
  }
}
