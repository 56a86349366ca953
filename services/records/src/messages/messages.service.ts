import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { ExportRow, MessagePage, MessageRecord } from '@uis/proto';
import { LessThan, type EntityManager, type Repository } from 'typeorm';
import { messageSnapshot, writeAudit } from '../audit/audit-log.service';
import { authorOf, type RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, recordsInOrder, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import { MessageEntity, toMessageRecord, type ListedMessage } from './message.entity';

/** A message as it is recorded, whoever reports it: its video time and action id when it has them. */
export type NewMessage = RecordAuthor & {
  sessionId: string;
  message: string;
  videoTime?: number | null;
  actionId?: string | null;
};

/**
 * The append, one statement for every session of a group commit. `seq` is counted per session
 * (record_sequences), so it tells a participant nothing of other sessions: each session's counter
 * is moved on once by its number of items (locked, in session order so that two appends cannot
 * deadlock, until the commit: a session's appends are stored one after the other, and a reader
 * never sees a later seq before an earlier one), and the items take its values in the order of the
 * arrays (`ord`). `created_at` is the column's default (the transaction's time, so one time for every
 * message of a call, as for the rows of any one INSERT).
 */
const APPEND_SQL = `
  WITH item AS (
    SELECT * FROM unnest(
        $1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[],
        $7::double precision[], $8::uuid[]
      ) WITH ORDINALITY
      AS item (id, session_id, author_user_id, author_email, name, message, video_time, action_id, ord)
  ), counter AS (
    INSERT INTO record_sequences AS s (session_id, kind, last)
    SELECT session_id, 'messages', count(*) FROM item GROUP BY session_id ORDER BY session_id
    ON CONFLICT (session_id, kind) DO UPDATE SET last = s.last + excluded.last
    RETURNING session_id, last
  )
  INSERT INTO messages (id, seq, session_id, author_user_id, author_email, name, message, video_time, action_id)
  SELECT item.id, counter.last - count(*) OVER per_session + row_number() OVER (per_session ORDER BY item.ord),
    item.session_id, author_user_id, author_email, name, message, video_time, action_id
  FROM item JOIN counter USING (session_id)
  WINDOW per_session AS (PARTITION BY item.session_id)
  ORDER BY item.ord
  RETURNING id, seq, created_at`;

/** The columns a listing needs: what an answer shows, nothing of the author's identity. */
const LISTED = {
  id: true,
  seq: true,
  message: true,
  createdAt: true,
  name: true,
  videoTime: true,
  actionId: true,
} as const;

/** LISTED's columns in SQL, as toMessageRecord reads them (`m.` when `prefix` is 'm.'). */
const listedColumns = (prefix = '') =>
  `${prefix}id, ${prefix}seq, ${prefix}message, ${prefix}name, ${prefix}created_at AS "createdAt",
    ${prefix}video_time AS "videoTime", ${prefix}action_id AS "actionId"`;

/**
 * The messages of session `$1` after the order key `$2` in the order stored, `$3` at most, LISTED's
 * columns: the REST list's pages (hundreds of rows), hence rows as pg gives them rather than an
 * entity per row.
 */
const LIST_SQL = `
  SELECT ${listedColumns()} FROM messages
  WHERE session_id = $1 AND seq > $2
  ORDER BY seq
  LIMIT $3`;

/**
 * The newest `$2` rows of each session of `$1` (one more than a page, for `hasMore`), newest first
 * within a session, the sessions in the order (`ord`) of the array, a repeated id read again. Each
 * lateral read is a backward scan of messages_session_seq_idx (session_id, seq), as a page() is. An
 * unknown session has no rows.
 */
const LATEST_SQL = `
  SELECT s.ord, ${listedColumns('m.')}
  FROM unnest($1::uuid[]) WITH ORDINALITY AS s (session_id, ord)
  CROSS JOIN LATERAL (
    SELECT seq, id, message, name, created_at, video_time, action_id FROM messages
    WHERE session_id = s.session_id
    ORDER BY seq DESC
    LIMIT $2
  ) m
  ORDER BY s.ord, m.seq DESC`;

/** A page from the newest `limit + 1` rows (newest first): the `limit` newest, oldest first. */
const pageOf = (newestFirst: readonly ListedMessage[], limit: number): MessagePage => ({
  messages: newestFirst.slice(0, limit).reverse().map(toMessageRecord),
  hasMore: newestFirst.length > limit,
});

/**
 * The message as it is inside `tx`, locked until the transaction ends, so what the audit log keeps
 * as `before` is what the change replaced (a concurrent edit waits). Gone meanwhile: 404.
 */
async function lockedMessage(tx: EntityManager, id: string): Promise<MessageEntity> {
  const row = await tx.findOne(MessageEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  if (!row) throw notFound('No such message.');
  return row;
}

/** The messages table: the one place records reads and writes chat messages. */
@Injectable()
export class MessagesService {
  constructor(
    @InjectRepository(MessageEntity) private readonly messages: Repository<MessageEntity>,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel and a participant's chat history, a page at a time: owner or participant in scope. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<MessageRecord>> {
    await this.access.requireMember(user, sessionId);
    const { rows, next } = await listPage(this.messages, sessionId, after, (afterSeq, limit) =>
      this.messages.query<ListedMessage[]>(LIST_SQL, [sessionId, afterSeq, limit]),
    );
    return { rows: rows.map(toMessageRecord), next };
  }

  /**
   * The newest `limit` messages of a session, or the newest `limit` stored before the message
   * `before`, oldest first: the live chat's pages, so joining a long session costs what a short one does.
   */
  async page(sessionId: string, { before, limit }: { before?: string; limit: number }): Promise<MessagePage> {
    let beforeSeq: string | undefined;
    if (before !== undefined) {
      const anchor = await this.messages.findOne({ select: { seq: true }, where: { id: before, sessionId } });
      if (!anchor) throw notFound('No such message in this session.');
      beforeSeq = anchor.seq;
    }
    const rows = await this.messages.find({
      select: LISTED,
      where: beforeSeq === undefined ? { sessionId } : { sessionId, seq: LessThan(beforeSeq) },
      order: { seq: 'DESC' },
      take: limit + 1,
    });
    return pageOf(rows, limit);
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
    const rows = await this.messages.query<(ListedMessage & { ord: string })[]>(LATEST_SQL, [
      sessionIds,
      limit + 1,
    ]);
    const rowsOf = sessionIds.map((): ListedMessage[] => []);
    // ord counts from 1 (a bigint, so text); the rows come newest first within each.
    for (const row of rows) rowsOf[Number(row.ord) - 1]!.push(row);
    // The ids as asked, not as Postgres spells them, so the caller can match each page to its id.
    return sessionIds.map((sessionId, i) => ({ sessionId, ...pageOf(rowsOf[i]!, limit) }));
  }

  /** A message posted over REST by a member of the session, under the caller's own name. */
  async addFor(
    user: AuthUser,
    sessionId: string,
    message: Pick<NewMessage, 'message' | 'videoTime' | 'actionId'>,
  ): Promise<MessageRecord> {
    // A participant writes only after agreeing to the session's consent text, as in the live chat.
    await this.access.requireMember(user, sessionId);
    // Counted as live messages are, so this door stores no faster than the socket.
    await this.limits.messagesAndClicks.consume(user.id, sessionId);
    return this.append({ ...message, ...authorOf(user), sessionId });
  }

  /** One message: the caller (REST above, or a caller with the author it checked) has decided who may write. */
  async append(message: NewMessage): Promise<MessageRecord> {
    const [record] = await this.appendMany([message]);
    return record!;
  }

  /**
   * Several messages in one statement, so in one commit: all are stored when this resolves, or
   * none. The records come back in the order of `messages`, which is also their order in each
   * session (`seq`). The hot path of the live chat (realtime's group commit), hence plain SQL with
   * array parameters: one constant statement whatever the count, no entity per row.
   */
  async appendMany(messages: readonly NewMessage[]): Promise<MessageRecord[]> {
    if (messages.length === 0) return [];
    // The ids are made here (random v4, as gen_random_uuid() makes them), so each returned row is
    // matched to its input by id, not by trusting the order RETURNING happens to use.
    const ids = messages.map(() => randomUUID());
    const rows = await this.messages.query<{ id: string; seq: string; created_at: Date }[]>(APPEND_SQL, [
      ids,
      messages.map((m) => m.sessionId),
      messages.map((m) => m.userId),
      messages.map((m) => m.email),
      messages.map((m) => m.name),
      messages.map((m) => m.message),
      messages.map((m) => m.videoTime ?? null),
      messages.map((m) => m.actionId ?? null),
    ]);
    const stored = new Map(rows.map((row) => [row.id, row]));
    return messages.map((m, i) => {
      const row = stored.get(ids[i]!);
      if (!row) throw new Error('INSERT ... RETURNING left out a message it stored');
      return toMessageRecord({
        id: row.id,
        seq: row.seq,
        message: m.message,
        name: m.name,
        createdAt: row.created_at,
        videoTime: m.videoTime ?? null,
        actionId: m.actionId ?? null,
      });
    });
  }

  /**
   * Changes the text (time and name stay); the audit log keeps the message before and after, in
   * the same transaction. Access is asked of studies first, so no transaction waits on that call.
   */
  async editFor(user: AuthUser, messageId: string, message: string): Promise<void> {
    const { id } = await this.ownedBy(user, messageId);
    await this.messages.manager.transaction(async (tx) => {
      const before = await lockedMessage(tx, id);
      await tx.update(MessageEntity, { id }, { message });
      await writeAudit(tx, user, {
        kind: 'editMessage',
        sessionId: before.sessionId,
        recordId: id,
        recordAuthorUserId: before.authorUserId,
        before: messageSnapshot(before),
        after: messageSnapshot({ ...before, message }),
      });
    });
  }

  /** Deletes the message; the audit log keeps it as it was, in the same transaction. */
  async deleteFor(user: AuthUser, messageId: string): Promise<void> {
    const { id } = await this.ownedBy(user, messageId);
    await this.messages.manager.transaction(async (tx) => {
      const before = await lockedMessage(tx, id);
      await tx.delete(MessageEntity, { id });
      await writeAudit(tx, user, {
        kind: 'deleteMessage',
        sessionId: before.sessionId,
        recordId: id,
        recordAuthorUserId: before.authorUserId,
        before: messageSnapshot(before),
        after: null,
      });
    });
  }

  /** The export's rows, in order, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<ExportRow<'messages'>> {
    for await (const row of recordsInOrder(this.messages, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield messageSnapshot(row);
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
