/**
 * The order of a session's chat: the order records stored the messages in (`seq`, its insertion
 * sequence), the one order of the REST list, the export, the live list the server sends and every
 * client's copy (where a `messageAdded` goes). Zod-free, so a browser can bundle it.
 *
 * Why not arrival order: replicas deliver concurrent messages to their own sockets first, so two
 * clients on different replicas can see two messages in opposite orders. Why not the stored time:
 * messages committed together (realtime's group commit) or within one millisecond share it, and
 * their ids are random, so a time order would not be the order they were sent and stored in.
 */
import { LIVE_MESSAGE_PAGE } from './constants';

/** The part of a message record its place in the list depends on. */
export interface OrderedMessage {
  message_id: string;
  /** Records' insertion sequence in the session: a decimal integer (a bigint) as text. */
  seq: string;
}

/** Negative when `a` comes before `b`: by `seq` (as numbers: shorter text is smaller), then by id. */
export function compareMessages(a: OrderedMessage, b: OrderedMessage): number {
  if (a.seq !== b.seq) {
    if (a.seq.length !== b.seq.length) return a.seq.length - b.seq.length;
    return a.seq < b.seq ? -1 : 1;
  }
  if (a.message_id !== b.message_id) return a.message_id < b.message_id ? -1 : 1;
  return 0;
}

/** A copy of `messages` in list order. */
export function orderMessages<T extends OrderedMessage>(messages: readonly T[]): T[] {
  return [...messages].sort(compareMessages);
}

/**
 * `messages` (already in list order) with `message` in its place: inserted when new, replacing the
 * copy already there when it was delivered before (a resync or a re-announcement may repeat one).
 */
export function mergeMessage<T extends OrderedMessage>(messages: readonly T[], message: T): T[] {
  const others = messages.filter((existing) => existing.message_id !== message.message_id);
  // New messages almost always belong at the end, so look from there.
  let at = others.length;
  while (at > 0 && compareMessages(others[at - 1]!, message) > 0) at -= 1;
  return [...others.slice(0, at), message, ...others.slice(at)];
}

/**
 * A client's copy of a session's chat, kept the way the server expects (use one per session):
 * call `requested()` when sending initMessage or sync, then hand it every `message` list and
 * `messageAdded`, and each `history` page. A list is a snapshot read after the socket joined the
 * room, so a message stored after the read reaches the client as messageAdded, possibly just before
 * the list: those are kept when the list replaces the copy, so nothing is lost however the two cross.
 *
 * A list is the newest page only (LIVE_MESSAGE_PAGE): when it is full, older messages may exist
 * (`hasOlder`), fetched a page at a time with `history` before `oldest`; what was fetched so, and
 * every other message held that the page leaves out, is kept when a resync's list arrives. A full
 * list that shares no message with the copy (the client was away while more than a page was
 * written) leaves a gap between the two: `gapBefore` is then set, and the client asks `history`
 * before it until the pages reach what it had (receivedOlder closes it).
 */
export class LiveMessageList<T extends OrderedMessage> {
  private list: T[] = [];
  private outstanding = 0;
  /** Messages added since the oldest unanswered request. */
  private addedSinceRequest = new Map<string, T>();
  private older = false;
  private gap: T | undefined;

  constructor(private readonly pageSize = LIVE_MESSAGE_PAGE) {}

  get messages(): readonly T[] {
    return this.list;
  }

  /** Whether the server has messages older than the first one here. */
  get hasOlder(): boolean {
    return this.older;
  }

  /** The first message here: `history` asks for what came before it. */
  get oldest(): T | undefined {
    return this.list[0];
  }

  /** Messages before this one may be missing (see above): ask `history` before it. */
  get gapBefore(): T | undefined {
    return this.gap;
  }

  requested(): void {
    this.outstanding += 1;
  }

  /** The answer to a request: the newest page, or undefined for the error marker (the copy stays). */
  receivedList(snapshot: readonly T[] | undefined): void {
    if (snapshot) {
      let list = orderMessages(snapshot);
      const first = list[0];
      if (snapshot.length >= this.pageSize && first) {
        // Every message held that the page leaves out stays: the pages fetched before (a resync must
        // not shorten what the reader scrolled back to), and any other. The server picks the page
        // in the order messages were stored, which is not always this list's order: rows of one
        // INSERT share a time and sort here by id, and concurrent appends may store an older time
        // after a newer one. A message held that sorts after the page's first one may so still be
        // older than the page, and it is stored all the same (nothing reaches a client before it is).
        const inPage = new Set(snapshot.map((message) => message.message_id));
        const kept = this.list.filter((message) => !inPage.has(message.message_id));
        if (kept.length === 0) this.older = true;
        const overlaps = kept.length < this.list.length;
        this.gap = kept.length > 0 && !overlaps ? first : undefined;
        list = orderMessages([...kept, ...list]);
      } else {
        this.older = false;
        this.gap = undefined;
      }
      for (const message of this.addedSinceRequest.values()) list = mergeMessage(list, message);
      this.list = list;
    }
    this.outstanding = Math.max(0, this.outstanding - 1);
    if (this.outstanding === 0) this.addedSinceRequest.clear();
  }

  receivedAdded(message: T): void {
    this.list = mergeMessage(this.list, message);
    if (this.outstanding > 0) this.addedSinceRequest.set(message.message_id, message);
  }

  /**
   * A `history` page: messages before `oldest` (or before `gapBefore`), and whether still older ones
   * exist. A page that reaches a message already here, or the start, closes the gap.
   */
  receivedOlder(messages: readonly T[], hasMore: boolean): void {
    const known = new Set(this.list.map((message) => message.message_id));
    let list = this.list;
    for (const message of messages) list = mergeMessage(list, message);
    this.list = list;
    if (this.gap) {
      const oldest = orderMessages(messages)[0];
      const reached = messages.some((message) => known.has(message.message_id));
      this.gap = reached || !hasMore || !oldest ? undefined : oldest;
    } else {
      this.older = hasMore;
    }
  }

  /** The connection dropped: unanswered requests never will be (the client asks again on reconnect). */
  disconnected(): void {
    this.outstanding = 0;
    this.addedSinceRequest.clear();
  }
}
