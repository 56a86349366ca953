import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { ExportTableRow, MessagePage, MessageRecord } from '@uis/proto';
import { AuditLogRepository } from '../audit/audit-log.repository';
import { authorOf } from '../author';
import { RecordsDb, type Tx } from '../db/records-db';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import {
  MessagesRepository,
  messageSnapshot,
  toMessageExportRow,
  toMessageRecord,
  type MessageRow,
  type NewMessage,
} from './messages.repository';

export type { NewMessage } from './messages.repository';

/** A page from the newest `limit + 1` rows (newest first): the `limit` newest, oldest first. */
const pageOf = (newestFirst: readonly MessageRow[], limit: number): MessagePage => ({
  messages: newestFirst.slice(0, limit).reverse().map(toMessageRecord),
  hasMore: newestFirst.length > limit,
});

/** Chat messages: who may read, write and change them, and the audit of changes. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly audit: AuditLogRepository,
    private readonly db: RecordsDb,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel and a participant's chat history, a page at a time: owner or participant in scope. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<MessageRecord>> {
    await this.access.requireMember(user, sessionId);
    const { rows, next } = await listPage(this.messages, sessionId, after);
    return { rows: rows.map(toMessageRecord), next };
  }

  /**
   * The newest `limit` messages of a session, or the newest `limit` stored before the message
   * `before`, oldest first: the live chat's pages, so joining a long session costs what a short one does.
   */
  async page(sessionId: string, { before, limit }: { before?: string; limit: number }): Promise<MessagePage> {
    let beforeSeq: string | undefined;
    if (before !== undefined) {
      const seq = await this.messages.seqOf(sessionId, before);
      if (seq === null) throw notFound('No such message in this session.');
      beforeSeq = seq;
    }
    return pageOf(await this.messages.latest(sessionId, beforeSeq, limit + 1), limit);
  }

  /**
   * page(sessionId, { limit }) of each session, in the order of `sessionIds` (a repeated id answered
   * each time), read by one statement: realtime's joins, grouped, cost one round trip and one query.
   */
  async latestPages(
    sessionIds: readonly string[],
    limit: number,
  ): Promise<(MessagePage & { sessionId: string })[]> {
    if (sessionIds.length === 0) return [];
    const rowsOf = await this.messages.latestOfEach(sessionIds, limit + 1);
    // The ids as asked, not as Postgres spells them, so the caller can match each page to its id.
    return sessionIds.map((sessionId, i) => ({ sessionId, ...pageOf(rowsOf[i]!, limit) }));
  }

  /** A message posted over REST by a member of the session, under the caller's own name. */
  async addFor(
    user: AuthUser,
    sessionId: string,
    message: Pick<NewMessage, 'message' | 'videoTime' | 'actionId'>,
  ): Promise<MessageRecord> {
    // As in the live chat: a participant writes only after agreeing to the session's consent text
    // and once it has started; nobody once it has ended.
    await this.access.requireWriter(user, sessionId);
    // Counted as live messages are, so this door stores no faster than the socket.
    await this.limits.messagesAndClicks.consume(user.id, sessionId);
    const [record] = await this.appendMany([{ ...message, ...authorOf(user), sessionId }]);
    return record!;
  }

  /**
   * Several messages in one statement, so in one commit: all are stored when this resolves, or
   * none. The records come back in the order of `messages`, which is also their order in each
   * session (`seq`). The hot path of the live chat (realtime's group commit): the caller has decided
   * who may write.
   */
  async appendMany(messages: readonly NewMessage[]): Promise<MessageRecord[]> {
    if (messages.length === 0) return [];
    return this.messages.append(messages);
  }

  /**
   * Changes the text (time and name stay); the audit log keeps the message before and after, in
   * the same transaction. Access is asked of studies first, so no transaction waits on that call.
   */
  async editFor(user: AuthUser, messageId: string, message: string): Promise<void> {
    await this.requireOwned(user, messageId);
    await this.db.transaction(async (tx) => {
      const before = await this.lockedMessage(tx, messageId);
      await this.messages.updateText(tx, messageId, message);
      await this.audit.insert(tx, user, {
        kind: 'editMessage',
        sessionId: before.sessionId,
        recordId: before.id,
        recordAuthorUserId: before.authorUserId,
        before: messageSnapshot(before),
        after: messageSnapshot({ ...before, message }),
      });
    });
  }

  /** Deletes the message; the audit log keeps it as it was, in the same transaction. */
  async deleteFor(user: AuthUser, messageId: string): Promise<void> {
    await this.requireOwned(user, messageId);
    await this.db.transaction(async (tx) => {
      const before = await this.lockedMessage(tx, messageId);
      await this.messages.delete(tx, messageId);
      await this.audit.insert(tx, user, {
        kind: 'deleteMessage',
        sessionId: before.sessionId,
        recordId: before.id,
        recordAuthorUserId: before.authorUserId,
        before: messageSnapshot(before),
        after: null,
      });
    });
  }

  /** messages.csv's rows of a session, in order, a page at a time. */
  async *exportRows(sessionId: string, people: ParticipantIds): AsyncGenerator<ExportTableRow<'messages'>> {
    for await (const row of this.messages.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toMessageExportRow(row, people);
    }
  }

  /**
   * The message as it is inside `tx`, locked until the transaction ends, so what the audit log keeps
   * as `before` is what the change replaced (a concurrent edit waits). Gone meanwhile: 404.
   */
  private async lockedMessage(tx: Tx, id: string): Promise<MessageRow> {
    const row = await this.messages.lockedInTx(tx, id);
    if (!row) throw notFound('No such message.');
    return row;
  }

  /** The message exists (404) and the caller owns its session (403). */
  private async requireOwned(user: AuthUser, messageId: string): Promise<void> {
    const sessionId = await this.messages.sessionOf(messageId);
    if (sessionId === null) throw notFound('No such message.');
    await this.access.requireOwner(user, sessionId);
  }
}
