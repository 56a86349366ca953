import type { Redis } from 'ioredis';

/** How long a sent marker outlives its mail: far beyond every retry and any duplicate enqueue. */
export const SENT_MARKER_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * What earlier attempts did for a request:
 * - `sent`: the server accepted the mail ("250");
 * - `handed-over`: the server had the whole message but one byte, the end of its data, which went
 *   out right after this was stored; the attempt then died before it saw the answer. Relays take a
 *   message when its data ends (Postfix, Mailpit: they keep it even if the sender is gone before the
 *   "250"), so a later attempt treats this as sent rather than mailing twice.
 */
export type SentState = 'sent' | 'handed-over';

/**
 * Remembers which requests were mailed. Checked before a send; `handedOver` is set just before the
 * end of the message goes out, `mark` right after the server accepts it, and `forget` clears a
 * hand-over whose attempt failed, so a retry sends again.
 */
export interface SentMarkerStore {
  get(requestId: string): Promise<SentState | undefined>;
  handedOver(requestId: string): Promise<void>;
  mark(requestId: string): Promise<void>;
  forget(requestId: string): Promise<void>;
}

export const sentMarkerKey = (prefix: string, requestId: string) => `${prefix}:mail:sent:${requestId}`;

const HANDED_OVER = 'handed-over';

/** Deletes the marker only if it is still a hand-over: a concurrent attempt's "sent" stays. */
const FORGET_HAND_OVER = `
if string.sub(redis.call('GET', KEYS[1]) or '', 1, ${HANDED_OVER.length}) == '${HANDED_OVER}' then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export class RedisSentMarkerStore implements SentMarkerStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(requestId: string): Promise<SentState | undefined> {
    const value = await this.redis.get(sentMarkerKey(this.prefix, requestId));
    if (value === null) return undefined;
    // Markers written before hand-overs existed hold a bare timestamp: those are "sent".
    return value.startsWith(HANDED_OVER) ? 'handed-over' : 'sent';
  }

  async handedOver(requestId: string): Promise<void> {
    await this.set(requestId, `${HANDED_OVER} ${new Date().toISOString()}`);
  }

  async mark(requestId: string): Promise<void> {
    await this.set(requestId, `sent ${new Date().toISOString()}`);
  }

  async forget(requestId: string): Promise<void> {
    await this.redis.eval(FORGET_HAND_OVER, 1, sentMarkerKey(this.prefix, requestId));
  }

  private async set(requestId: string, value: string): Promise<void> {
    await this.redis.set(sentMarkerKey(this.prefix, requestId), value, 'EX', SENT_MARKER_TTL_SECONDS);
  }
}

/** The in-process queue's markers: one process, so memory is the whole truth (expired lazily). */
export class MemorySentMarkerStore implements SentMarkerStore {
  private readonly markers = new Map<string, { state: SentState; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(requestId: string): Promise<SentState | undefined> {
    const marker = this.markers.get(requestId);
    return Promise.resolve(marker && marker.expiresAt > this.now() ? marker.state : undefined);
  }

  handedOver(requestId: string): Promise<void> {
    return this.set(requestId, 'handed-over');
  }

  mark(requestId: string): Promise<void> {
    return this.set(requestId, 'sent');
  }

  forget(requestId: string): Promise<void> {
    if (this.markers.get(requestId)?.state === 'handed-over') this.markers.delete(requestId);
    return Promise.resolve();
  }

  private set(requestId: string, state: SentState): Promise<void> {
    const now = this.now();
    for (const [id, { expiresAt }] of this.markers) if (expiresAt <= now) this.markers.delete(id);
    this.markers.set(requestId, { state, expiresAt: now + SENT_MARKER_TTL_SECONDS * 1000 });
    return Promise.resolve();
  }
}
