import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { InternalAnswerOf } from '@uis/proto';
import { DataSource, In } from 'typeorm';
import { MessageEntity } from '../messages/message.entity';
import { PixelEntity } from '../pixels/pixel.entity';

/** The `res` of both internal delete routes. */
type Done = InternalAnswerOf<'recordsSessionDataDelete'>;

/**
 * Removing records when what they belong to goes away. Both deletes are idempotent (a second call
 * finds nothing and succeeds), so studies and auth can simply retry after a failure elsewhere.
 */
@Injectable()
export class RecordsDeletionService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A session (or every session of a group) was deleted in studies. */
  async deleteSessions(sessionIds: readonly string[]): Promise<Done> {
    const removed = await this.deleteWhere({ sessionId: In([...new Set(sessionIds)]) });
    return { message: `Deleted ${removed} records of ${sessionIds.length} sessions.` };
  }

  /**
   * The right to erasure: every message and click the user wrote, in any session. Rows are matched
   * by the author's user id, which every row carries (the e-mail may be missing on appended rows).
   */
  async deleteUser(userId: string): Promise<Done> {
    const removed = await this.deleteWhere({ authorUserId: userId });
    return { message: `Deleted ${removed} records of the user.` };
  }

  private deleteWhere(where: { sessionId: ReturnType<typeof In> } | { authorUserId: string }) {
    return this.db.transaction(async (tx) => {
      const [messages, pixels] = [await tx.delete(MessageEntity, where), await tx.delete(PixelEntity, where)];
      return (messages.affected ?? 0) + (pixels.affected ?? 0);
    });
  }
}
