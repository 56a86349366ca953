import type { Redis } from 'ioredis';

/** How long a sent marker outlives its mail: far beyond every retry and any duplicate enqueue. */
export const SENT_MARKER_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * Remembers which requests were mailed. Checked before a send and set right after one, so a retry
 * that follows a crash between "sent" and "job completed" does not mail twice.
 */
export interface SentMarkerStore {
  has(requestId: string): Promise<boolean>;
  mark(requestId: string): Promise<void>;
}

export const sentMarkerKey = (prefix: string, requestId: string) => `${prefix}:mail:sent:${requestId}`;

export class RedisSentMarkerStore implements SentMarkerStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async has(requestId: string): Promise<boolean> {
    return (await this.redis.exists(sentMarkerKey(this.prefix, requestId))) === 1;
  }

  async mark(requestId: string): Promise<void> {
    await this.redis.set(
      sentMarkerKey(this.prefix, requestId),
      new Date().toISOString(),
      'EX',
      SENT_MARKER_TTL_SECONDS,
    );
  }
}

/** The in-process queue's markers: one process, so memory is the whole truth (expired lazily). */
export class MemorySentMarkerStore implements SentMarkerStore {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  has(requestId: string): Promise<boolean> {
    const expiresAt = this.expiries.get(requestId);
    return Promise.resolve(expiresAt !== undefined && expiresAt > this.now());
  }

  mark(requestId: string): Promise<void> {
    const now = this.now();
    for (const [id, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(id);
    this.expiries.set(requestId, now + SENT_MARKER_TTL_SECONDS * 1000);
    return Promise.resolve();
  }
}
