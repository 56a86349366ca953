import { Injectable } from '@nestjs/common';
import type { AuthUser } from '@uis/kit';
import type { RecordCounts } from '@uis/proto';
import { MessagesRepository } from '../messages/messages.repository';
import { OwnedSessions, type SessionOrGroup } from '../owned-sessions';
import { PixelsRepository } from '../pixels/pixels.repository';

/** What deleting a session or a group would lose of its records, for its owner to confirm. */
@Injectable()
export class RecordCountsService {
  constructor(
    private readonly owned: OwnedSessions,
    private readonly messages: MessagesRepository,
    private readonly pixels: PixelsRepository,
  ) {}

  async countFor(user: AuthUser, target: SessionOrGroup): Promise<RecordCounts> {
    const sessionIds = await this.owned.of(user, target);
    const [messages, clicks] = await Promise.all([
      this.messages.countSessions(sessionIds),
      this.pixels.countSessions(sessionIds),
    ]);
    return { sessions: sessionIds.length, messages, clicks };
  }
}
