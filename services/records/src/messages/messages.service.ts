import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { ExportRow, MessageRecord } from '@uis/proto';
import { MoreThan, type Repository } from 'typeorm';
import { authorOf, type RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { MessageEntity, toMessageRecord } from './message.entity';

/** A message as it is recorded, whoever reports it. */
export type NewMessage = RecordAuthor & { sessionId: string; message: string };

/** The columns a listing needs: what an answer shows, nothing of the author's identity. */
const LISTED = { id: true, message: true, createdAt: true, name: true } as const;

/** The messages table: the one place records reads and writes chat messages. */
@Injectable()
export class MessagesService {
  constructor(
    @InjectRepository(MessageEntity) private readonly messages: Repository<MessageEntity>,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel and a participant's chat history: owner or participant in scope. */
  async listFor(user: AuthUser, sessionId: string): Promise<MessageRecord[]> {
    await this.access.requireMember(user, sessionId);
    return this.list(sessionId);
  }

  /** Every message of a session in the order they were stored. */
  async list(sessionId: string): Promise<MessageRecord[]> {
    const rows = await this.messages.find({ select: LISTED, where: { sessionId }, order: { seq: 'ASC' } });
    return rows.map(toMessageRecord);
  }

  /** A message posted over REST by a member of the session, under the caller's own name. */
  async addFor(user: AuthUser, sessionId: string, message: string): Promise<MessageRecord> {
    await this.access.requireMember(user, sessionId);
    return this.append({ ...authorOf(user), sessionId, message });
  }

  /** One INSERT: the caller (REST above, or realtime with the author it checked) has decided who may write. */
  async append({ sessionId, message, ...author }: NewMessage): Promise<MessageRecord> {
    const row = this.messages.create({
      sessionId,
      authorUserId: author.userId,
      authorEmail: author.email,
      name: author.name,
      message,
    });
    // insert() fills the generated id and created_at into `row` from RETURNING.
    await this.messages.insert(row);
    return toMessageRecord(row);
  }

  async editFor(user: AuthUser, messageId: string, message: string): Promise<void> {
    const row = await this.ownedBy(user, messageId);
    await this.messages.update({ id: row.id }, { message });
  }

  async deleteFor(user: AuthUser, messageId: string): Promise<void> {
    const row = await this.ownedBy(user, messageId);
    await this.messages.delete({ id: row.id });
  }

  /** The export's rows, read a page at a time along the order key so a long session never sits in memory. */
  async *exportRows(sessionId: string): AsyncGenerator<ExportRow<'messages'>> {
    const take = this.config.EXPORT_PAGE_ROWS;
    let after = '0';
    for (;;) {
      const page = await this.messages.find({
        where: { sessionId, seq: MoreThan(after) },
        order: { seq: 'ASC' },
        take,
      });
      for (const row of page) {
        yield {
          message_id: row.id,
          time: row.createdAt.toISOString(),
          name: row.name,
          email: row.authorEmail,
          message: row.message,
        };
      }
      const last = page.at(-1);
      if (!last || page.length < take) return;
      after = last.seq;
    }
  }

  /** The message, once the caller is known to own its session (unknown message: 404). */
  private async ownedBy(user: AuthUser, messageId: string): Promise<Pick<MessageEntity, 'id'>> {
    const row = await this.messages.findOne({
      select: { id: true, sessionId: true },
      where: { id: messageId },
    });
    if (!row) throw notFound('No such message.');
    await this.access.requireOwner(user, row.sessionId);
    return row;
  }
}
