/**
 * The order of a session's chat list on the live protocol, shared by the server (the full list it
 * sends) and clients (where a `messageAdded` goes). Zod-free, so a browser can bundle it.
 *
 * Why not arrival order: replicas deliver concurrent messages to their own sockets first, so two
 * clients on different replicas can see two messages in opposite orders. Ordering by the stored
 * time (then the id, for messages stored within the same millisecond) gives every client the same
 * list however the messages reached it, and the same list the server sends on a resync.
 */

/** The part of a message record its place in the list depends on. */
export interface OrderedMessage {
  message_id: string;
  /** ISO 8601 UTC, as records writes it (fixed width, so text order is time order). */
  time: string;
}

/** Negative when `a` comes before `b`: by time, then by id. */
export function compareMessages(a: OrderedMessage, b: OrderedMessage): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
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
 * `messageAdded`. A list is a snapshot read after the socket joined the room, so a message stored
 * after the read reaches the client as messageAdded, possibly just before the list: those are
 * kept when the list replaces the copy, so nothing is lost however the two cross.
 */
export class LiveMessageList<T extends OrderedMessage> {
  private list: T[] = [];
  private outstanding = 0;
  /** Messages added since the oldest unanswered request. */
  private addedSinceRequest = new Map<string, T>();

  get messages(): readonly T[] {
    return this.list;
  }

  requested(): void {
    this.outstanding += 1;
  }

  /** The answer to a request: the full list, or undefined for the error marker (the copy stays). */
  receivedList(snapshot: readonly T[] | undefined): void {
    if (snapshot) {
      let list = orderMessages(snapshot);
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

  /** The connection dropped: unanswered requests never will be (the client asks again on reconnect). */
  disconnected(): void {
    this.outstanding = 0;
    this.addedSinceRequest.clear();
  }
}
