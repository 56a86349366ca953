import { Injectable } from '@nestjs/common';
import { CallBatcher, InternalClient, unavailable, validationError, type AuthUser } from '@uis/kit';
import {
  AppendedMessage,
  LIVE_MESSAGE_PAGE,
  MESSAGES_PER_APPEND,
  SESSIONS_PER_LATEST_READ,
  internalRoutes,
  type MessagePage,
  type InternalRequestOf,
  type MessageRecord,
  type PixelRecord,
  type PlaybackRecord,
} from '@uis/proto';

/** Who an append is recorded for: the socket's signed-in user, never a name the payload claims. */
const authorOf = (user: AuthUser) => ({ userId: user.id, email: user.email, name: user.name });

type PixelInput = Omit<InternalRequestOf<'recordsAppendPixel'>, 'userId' | 'email' | 'name'>;
type PlaybackInput = Omit<InternalRequestOf<'recordsAppendPlayback'>, 'userId' | 'email' | 'name'>;
type MessageInput = InternalRequestOf<'recordsAppendMessages'>['items'][number];

/**
 * The most JSON one group of appends may carry: below the 100 kB body limit of the kit's JSON
 * parser, with room for the wrapper. 200 typical messages take about 45 kB; 2,000-character ones
 * go about 40 to a call (15 when each character takes three bytes).
 */
export const APPEND_BODY_BUDGET = 90 * 1024;
const jsonBytes = (item: MessageInput) => Buffer.byteLength(JSON.stringify(item)) + 1;

/** Records owns the messages, clicks and the playback log: realtime reads and appends them through its internal routes. */
@Injectable()
export class SessionRecords {
  /** Chat appends, grouped: what arrives while one call is in flight goes as the next (one INSERT). */
  private readonly messageAppends: CallBatcher<MessageInput, MessageRecord>;
  /**
   * Joins' reads of the newest page, grouped the same way (a join storm is one call per round trip,
   * not one per socket). Each read starts after its join was added, so after the socket joined the
   * room: nothing stored later is missed. No page outlives its call.
   */
  private readonly latestReads: CallBatcher<string, readonly MessageRecord[]>;
  /** Each session's last playback-log append, for the next to wait for. */
  private readonly playbackTails = new Map<string, Promise<unknown>>();

  constructor(private readonly internal: InternalClient) {
    this.messageAppends = new CallBatcher(
      async (items) => (await this.internal.call(internalRoutes.recordsAppendMessages, { items })).messages,
      { maxItems: MESSAGES_PER_APPEND, maxBytes: APPEND_BODY_BUDGET, sizeOf: jsonBytes },
    );
    this.latestReads = new CallBatcher((sessionIds) => this.readLatest(sessionIds), {
      maxItems: SESSIONS_PER_LATEST_READ,
    });
  }

  /** The session's newest LIVE_MESSAGE_PAGE messages, in the chat's order (records answers in it). */
  async latestMessages(sessionId: string): Promise<MessageRecord[]> {
    // A copy: the sockets of one session joining together share the page read for them.
    return [...(await this.latestReads.add(sessionId))];
  }

  /**
   * One call for a group of joins: each session once (sockets of one session join together in a
   * storm), each join answered its own session's page.
   */
  private async readLatest(sessionIds: readonly string[]): Promise<(readonly MessageRecord[])[]> {
    const distinct = [...new Set(sessionIds)];
    const { pages } = await this.internal.call(internalRoutes.recordsLatestMessages, {
      sessionIds: distinct,
      limit: LIVE_MESSAGE_PAGE,
    });
    const pageOf = new Map<string, readonly MessageRecord[]>();
    distinct.forEach((sessionId, i) => {
      if (pages[i]?.sessionId !== sessionId)
        throw unavailable(`records answered ${internalRoutes.recordsLatestMessages.path} out of order`);
      pageOf.set(sessionId, pages[i].messages);
    });
    return sessionIds.map((sessionId) => pageOf.get(sessionId)!);
  }

  /** The page of messages before the message `before`, in the chat's order (records answers in it). */
  async messagesBefore(sessionId: string, before: string): Promise<MessagePage> {
    return this.internal.call(internalRoutes.recordsListMessages, {
      sessionId,
      before,
      limit: LIVE_MESSAGE_PAGE,
    });
  }

  /**
   * Stored (committed) when this resolves: only then may anyone see or be told of it. Goes with the
   * other messages that arrive meanwhile; a call that fails fails for each of them alike (records
   * unavailable: try again). An item records would refuse is refused here, alone, with records'
   * own words, so it cannot take the others of its call down with it.
   */
  async appendMessage(
    user: AuthUser,
    sessionId: string,
    message: string,
    { videoTime = null, actionId = null }: Partial<Pick<MessageInput, 'videoTime' | 'actionId'>> = {},
  ): Promise<MessageRecord> {
    const item: MessageInput = { sessionId, ...authorOf(user), message, videoTime, actionId };
    const checked = AppendedMessage.safeParse(item);
    if (!checked.success) throw validationError(checked.error);
    return this.messageAppends.add(item);
  }

  async appendPixel(user: AuthUser, pixel: PixelInput): Promise<PixelRecord> {
    const answer = await this.internal.call(internalRoutes.recordsAppendPixel, {
      ...pixel,
      ...authorOf(user),
    });
    return answer.pixel;
  }

  /**
   * An entry of the playback log, stored when this resolves (the researcher's events are few: no
   * grouping). A session's entries are stored one after the other in the order they were asked for
   * (records stamps each when it stores it), so one that is not waited for still goes before the next.
   */
  async appendPlayback(user: AuthUser, entry: PlaybackInput): Promise<PlaybackRecord> {
    const { sessionId } = entry;
    const previous = this.playbackTails.get(sessionId) ?? Promise.resolve();
    const appended = previous
      .catch(() => undefined)
      .then(() => this.internal.call(internalRoutes.recordsAppendPlayback, { ...entry, ...authorOf(user) }));
    this.playbackTails.set(sessionId, appended);
    try {
      return (await appended).playback;
    } finally {
      if (this.playbackTails.get(sessionId) === appended) this.playbackTails.delete(sessionId);
    }
  }
}
