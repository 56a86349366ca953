import { STATUS } from '@uis/proto/browser';
import type { Ack, StampedVideoStatus } from '@uis/proto';
import type { ConnectionStatus } from '@uis/live-client';
import type { LiveLink } from '../live-link';
import type { PlayerAdapter, PlayerEvent } from '../players/player';

/**
 * Stand-ins for the unit tests of the React-free live modules: a player whose time runs on the fake
 * clock (vi.useFakeTimers), and a live link that records what is sent and lets the test play the
 * server.
 */

export interface FakePlayerOptions {
  /** How long a seek takes to complete ('seeked'); playback stands still meanwhile. */
  seekMs?: number;
  /** How long play() takes to start the picture moving. */
  startMs?: number;
  /** How much faster (positive) or slower than its rate this player's video really runs: 0.01 is 1 %. */
  speedError?: number;
  duration?: number;
  /** play() rejects with this (NotAllowedError: autoplay blocked) while set. */
  playError?: Error | null;
  /** colorAt answers this (null: a frame that cannot be read). */
  color?: string | null;
}

export class FakePlayer implements PlayerAdapter {
  position = 0;
  rate = 1;
  isPaused = true;
  isMuted = false;
  readonly log: string[] = [];
  private since = Date.now();
  private seekingUntil = 0;
  private startingUntil = 0;
  private readonly listeners = new Map<PlayerEvent, Set<() => void>>();
  private seekTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly options: FakePlayerOptions = {}) {}

  /** Brings `position` up to now. */
  private settle(): void {
    const now = Date.now();
    const from = Math.max(this.since, this.seekingUntil, this.startingUntil);
    if (!this.isPaused && now > from) {
      this.position += ((now - from) / 1000) * this.rate * (1 + (this.options.speedError ?? 0));
    }
    this.since = Math.max(now, this.since);
    const end = this.options.duration ?? Infinity;
    if (this.position >= end) {
      this.position = end;
      if (!this.isPaused) {
        this.isPaused = true;
        this.emit('pause');
        this.emit('ended');
      }
    }
  }

  currentTime(): number {
    this.settle();
    return this.position;
  }
  paused(): boolean {
    this.settle();
    return this.isPaused;
  }
  playbackRate(): number {
    return this.rate;
  }
  play(): Promise<void> {
    this.settle();
    this.log.push('play');
    if (this.options.playError) return Promise.reject(this.options.playError);
    if (this.isPaused) {
      this.isPaused = false;
      this.startingUntil = Date.now() + (this.options.startMs ?? 0);
      this.emit('play');
    }
    return Promise.resolve();
  }
  pause(): void {
    this.settle();
    this.log.push('pause');
    if (!this.isPaused) {
      this.isPaused = true;
      this.emit('pause');
    }
  }
  seek(seconds: number): void {
    this.settle();
    this.log.push(`seek ${seconds.toFixed(3)}`);
    const ms = this.options.seekMs ?? 0;
    this.position = Math.min(seconds, this.options.duration ?? Infinity);
    this.seekingUntil = Date.now() + ms;
    clearTimeout(this.seekTimer);
    this.seekTimer = setTimeout(() => this.emit('seeked'), ms);
  }
  setPlaybackRate(rate: number): void {
    this.settle();
    this.rate = rate;
    this.emit('ratechange');
  }
  muted(): boolean {
    return this.isMuted;
  }
  setMuted(muted: boolean): void {
    this.isMuted = muted;
  }
  on(event: PlayerEvent, listener: () => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return () => set.delete(listener);
  }
  colorAt(): string | null {
    return this.options.color === undefined ? 'rgba(1, 2, 3, 1)' : this.options.color;
  }
  destroy(): void {
    this.listeners.clear();
  }
  emit(event: PlayerEvent): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener();
  }
  listenerCount(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

type Handler = (payload: never) => void;

/** A live link whose server is the test: `sent` holds what the client asked, `emit` plays the server. */
export class FakeLink implements LiveLink {
  /** How far the server's clock is ahead of this browser's (ms). */
  offset = 0;
  readonly clock = { now: () => Date.now() + this.offset };
  state: { status: ConnectionStatus } = { status: 'connected' };
  readonly sent: Array<{ event: string; payload: unknown }> = [];
  /** Answers by event (default: SUCCESS with null). */
  answers: Record<string, (payload: unknown) => Ack<unknown> | Promise<Ack<unknown>>> = {};
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly listeners = new Set<(state: { status: ConnectionStatus }) => void>();

  subscribe(listener: (state: { status: ConnectionStatus }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  on(event: string, handler: Handler): () => void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler);
    this.handlers.set(event, set);
    return () => set.delete(handler);
  }
  ask(event: string, payload: unknown): Promise<Ack<never>> {
    this.sent.push({ event, payload });
    const answer = this.answers[event]?.(payload) ?? { status: STATUS.SUCCESS, res: null };
    return Promise.resolve(answer) as Promise<Ack<never>>;
  }

  /** The server sends an event. */
  emit(event: string, payload: unknown): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) (handler as (p: unknown) => void)(payload);
  }
  setStatus(status: ConnectionStatus): void {
    this.state = { status };
    for (const listener of [...this.listeners]) listener(this.state);
  }
  /** The payloads of one event the client sent. */
  sentOf<T = unknown>(event: string): T[] {
    return this.sent.filter((entry) => entry.event === event).map((entry) => entry.payload as T);
  }
  statuses(): StampedVideoStatus[] {
    return this.sentOf<StampedVideoStatus>('videoStatus');
  }
  handlerCount(): number {
    return [...this.handlers.values()].reduce((sum, set) => sum + set.size, 0);
  }
}
