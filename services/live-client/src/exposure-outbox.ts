import { ERROR_CODES, EXPOSURE_EVENTS_PER_BATCH, EXPOSURE_FLUSH_MS, STATUS } from '@uis/proto/browser';
import type { ClientExposureEvent, ClientExposureKind } from '@uis/proto';
import type { LiveConnection } from './live-connection';

/** Where unsent events wait across a reload (the browser's sessionStorage); none: memory only. */
export interface ExposureStore {
  load(): ClientExposureEvent[];
  save(events: readonly ClientExposureEvent[]): void;
}

export interface ExposureOutboxOptions {
  store?: ExposureStore;
  flushMs?: number;
  /** The client's clock (epoch ms). */
  now?: () => number;
}

/** Refusals a later try may pass (the server was busy or away); any other refusal drops the batch. */
const RETRIED: ReadonlySet<string> = new Set([
  ERROR_CODES.RATE_LIMITED,
  ERROR_CODES.UNAVAILABLE,
  ERROR_CODES.INTERNAL,
  ERROR_CODES.UNAUTHENTICATED,
]);

/** A random (version 4) UUID; crypto.randomUUID only exists in secure contexts. */
export function randomEventId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A participant's exposure events on their way to realtime's `exposure` event: gathered, sent a batch
 * at a time (every `flushMs`, at once when a batch is full, and on every reconnect), one batch in
 * flight. A batch leaves the outbox only when the server acknowledged it stored; without an answer
 * (the connection dropped) it is sent again, and each event's own id makes the second copy a no-op
 * on the server. Nothing is lost across a reconnect, and with a store, across a reload.
 */
export class ExposureOutbox {
  private pending: ClientExposureEvent[];
  private sending: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly now: () => number;

  constructor(
    private readonly connection: LiveConnection,
    private readonly sessionId: string,
    private readonly options: ExposureOutboxOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.pending = options.store?.load() ?? [];
  }

  /** Events not acknowledged yet. */
  get unsent(): readonly ClientExposureEvent[] {
    return this.pending;
  }

  /** Starts sending: now, every flushMs, and whenever the connection comes back. */
  start(): void {
    this.stop();
    let previous = this.connection.state.status;
    this.unsubscribe = this.connection.subscribe(({ status }) => {
      if (status === 'connected' && previous !== 'connected') void this.flush();
      previous = status;
    });
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? EXPOSURE_FLUSH_MS);
    void this.flush();
  }

  /** Stops sending; what is unsent stays in the store for the next page. */
  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** An event now, where the participant's player is (null without one). */
  record(kind: ClientExposureKind, videoTime: number | null): void {
    const event: ClientExposureEvent = {
      eventId: randomEventId(),
      kind,
      videoTime: videoTime === null ? null : Math.max(0, videoTime),
      clientTime: Math.round(this.now()),
    };
    this.pending = [...this.pending, event];
    this.options.store?.save(this.pending);
    if (this.pending.length >= EXPOSURE_EVENTS_PER_BATCH) void this.flush();
  }

  /**
   * Sends what is pending, a batch after another, while connected; resolves when done or stopped
   * trying. After a send in flight: one batch at a time, and what was recorded meanwhile goes too.
   */
  flush(): Promise<void> {
    const next = (this.sending ?? Promise.resolve()).then(() => this.sendAll());
    this.sending = next;
    void next.finally(() => {
      if (this.sending === next) this.sending = null;
    });
    return next;
  }

  private async sendAll(): Promise<void> {
    while (this.pending.length > 0 && this.connection.state.status === 'connected') {
      const batch = this.pending.slice(0, EXPOSURE_EVENTS_PER_BATCH);
      let answer;
      try {
        answer = await this.connection.ask('exposure', { sessionId: this.sessionId, events: batch });
      } catch {
        return; // No answer: kept, sent again on the next flush (the reconnect's, at the latest).
      }
      if (answer.status !== STATUS.SUCCESS && RETRIED.has(answer.res.code)) return;
      // Stored, or refused for good (the session ended, a bad event): out of the outbox either way.
      const sent = new Set(batch.map((event) => event.eventId));
      this.pending = this.pending.filter((event) => !sent.has(event.eventId));
      this.options.store?.save(this.pending);
    }
  }
}
