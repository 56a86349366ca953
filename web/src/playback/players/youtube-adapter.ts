import { PLAYBACK_RATE_MAX, PLAYBACK_RATE_MIN } from '@uis/proto/browser';
import type { PlayerAdapter, PlayerEvent } from './player';
import { playAborted, playNotAllowed } from './stream-errors';
import { YT_STATE, type YouTubePlayerLike } from './youtube-iframe-api';

/** How often the player is asked where it is: 'timeupdate' while playing, and seek detection. */
export const YOUTUBE_POLL_MS = 250;
/** How often, while a seek() is under way, whether it has landed (its 'seeked' times the sync's lead). */
export const YOUTUBE_SEEK_CHECK_MS = 40;
/**
 * A position this far (seconds) outside what the clock explains since the last look is a seek: the
 * API has no seek event, and the researcher seeks with the player's own controls in its iframe.
 */
export const YOUTUBE_SEEK_JUMP_S = 0.5;
/** A seek() that has not landed after this long is taken as done ('seeked', the reported time again). */
export const YOUTUBE_SEEK_SETTLE_MS = 2_000;
/**
 * After pause(), reports of playing are of before the command (the player answers by postMessage)
 * and are not believed for this long.
 */
export const YOUTUBE_PAUSE_GRACE_MS = 1_000;
/**
 * After play(), reports of a stopped player are not believed for this long either (a first play goes
 * UNSTARTED, BUFFERING, PLAYING); a play() that has neither started nor begun buffering by then was
 * refused (autoplay without a gesture) and rejects with NotAllowedError, as a <video>'s would.
 */
export const YOUTUBE_PLAY_START_MS = 3_000;

type Waiter = { resolve: () => void; reject: (error: unknown) => void };

/** What a state says of `paused`: buffering says nothing (it happens playing and seeking alike). */
const pausedIn = (state: number): boolean | null =>
  state === YT_STATE.PLAYING ? false : state === YT_STATE.BUFFERING ? null : true;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * A ready YT.Player as a PlayerAdapter, with a <video>'s semantics where the sync relies on them:
 * `paused()` follows the last play()/pause() at once and the player's state otherwise; 'play',
 * 'pause' and 'ended' come from onStateChange, 'ratechange' from onPlaybackRateChange; 'seeked'
 * when a seek() has landed (the player reports the new position and is not buffering), and when the
 * poll sees the position jump (the researcher used the player's own controls); 'timeupdate' from the
 * poll while playing. During a seek currentTime() answers the target, as a <video>'s does. colorAt
 * is null: another origin's iframe cannot be read, so clicks record 'n/a'.
 */
export class YouTubeAdapter implements PlayerAdapter {
  private readonly listeners = new Map<PlayerEvent, Set<() => void>>();
  private isPaused: boolean;
  /** A play()/pause() not yet confirmed by the player. */
  private intent: { paused: boolean; until: number } | null = null;
  private playWaiters: Waiter[] = [];
  /** Where a seek() went (moved on while playing), until the player reports near it. */
  private seekAnchor: { seconds: number; at: number } | null = null;
  /** A seek() whose 'seeked' is still due, and when it was asked. */
  private seekSince: number | null = null;
  /** A jump the poll saw while YouTube still buffered: 'seeked' once it plays or pauses there. */
  private jumpPending = false;
  private seekTimer: ReturnType<typeof setInterval> | null = null;
  private mutedWish: boolean | null = null;
  /** The last look at the position, to tell a jump from time passing. */
  private last: { time: number; at: number; rate: number; playing: boolean };
  private readonly pollTimer: ReturnType<typeof setInterval>;
  private readonly timeouts = new Set<ReturnType<typeof setTimeout>>();
  private destroyed = false;
  private readonly now: () => number;
  private readonly onDestroy: () => void;

  constructor(
    private readonly player: YouTubePlayerLike,
    options: { now?: () => number; pollMs?: number; onDestroy?: () => void } = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.onDestroy = options.onDestroy ?? (() => {});
    this.isPaused = pausedIn(player.getPlayerState()) ?? true;
    this.last = this.sample();
    this.pollTimer = setInterval(() => this.poll(), options.pollMs ?? YOUTUBE_POLL_MS);
  }

  // ---- YouTube's events (wired by youtube-player.ts) ------------------------------------------

  /** onStateChange's data. */
  stateChanged(state: number): void {
    if (this.destroyed) return;
    if (state === YT_STATE.PLAYING) this.settlePlay();
    this.applyState(state);
    this.checkSeek();
    this.checkJump(state);
  }

  /** onPlaybackRateChange. */
  rateChanged(): void {
    if (!this.destroyed) this.emit('ratechange');
  }

  // ---- PlayerAdapter -----------------------------------------------------------------------------

  currentTime(): number {
    const reported = this.player.getCurrentTime() || 0;
    const anchor = this.seekAnchor;
    if (!anchor) return reported;
    const now = this.now();
    if (this.player.getPlayerState() === YT_STATE.PLAYING) {
      anchor.seconds += ((now - anchor.at) / 1000) * this.playbackRate();
    }
    anchor.at = now;
    const since = this.seekSince ?? -Infinity;
    if (Math.abs(reported - anchor.seconds) < YOUTUBE_SEEK_JUMP_S || now - since > YOUTUBE_SEEK_SETTLE_MS) {
      this.seekAnchor = null;
      return reported;
    }
    return anchor.seconds;
  }

  paused(): boolean {
    return this.isPaused;
  }

  playbackRate(): number {
    return this.player.getPlaybackRate() || 1;
  }

  play(): Promise<void> {
    if (this.destroyed) return Promise.reject(playAborted());
    if (!this.isPaused && this.player.getPlayerState() === YT_STATE.PLAYING) return Promise.resolve();
    const started = new Promise<void>((resolve, reject) => this.playWaiters.push({ resolve, reject }));
    this.intent = { paused: false, until: this.now() + YOUTUBE_PLAY_START_MS };
    this.setPaused(false, true);
    this.player.playVideo();
    return started;
  }

  pause(): void {
    if (this.destroyed) return;
    this.rejectPlay(playAborted());
    this.intent = { paused: true, until: this.now() + YOUTUBE_PAUSE_GRACE_MS };
    this.setPaused(true, true);
    this.player.pauseVideo();
  }

  seek(seconds: number): void {
    if (this.destroyed || !Number.isFinite(seconds)) return;
    const target = Math.max(0, seconds);
    const now = this.now();
    const state = this.player.getPlayerState();
    this.player.seekTo(target, true);
    // YouTube starts a cued, unstarted or ended video when it is sought; a <video> stays paused.
    // Unless play() follows at once (a follower's seek-then-play): then it may start.
    if (this.isPaused && state !== YT_STATE.PAUSED) {
      queueMicrotask(() => {
        if (this.destroyed || !this.isPaused) return;
        this.intent = { paused: true, until: this.now() + YOUTUBE_PAUSE_GRACE_MS };
        this.player.pauseVideo();
      });
    }
    this.seekAnchor = { seconds: target, at: now };
    this.seekSince = now;
    this.seekTimer ??= setInterval(() => this.checkSeek(), YOUTUBE_SEEK_CHECK_MS);
  }

  /** YouTube plays a few rates (0.25 to 2): it takes the nearest toward 1, and onPlaybackRateChange tells. */
  setPlaybackRate(rate: number): void {
    if (this.destroyed || !Number.isFinite(rate)) return;
    this.player.setPlaybackRate(clamp(rate, PLAYBACK_RATE_MIN, PLAYBACK_RATE_MAX));
  }

  muted(): boolean {
    const reported = this.player.isMuted();
    if (this.mutedWish === null || this.mutedWish === reported) {
      this.mutedWish = null;
      return reported;
    }
    return this.mutedWish;
  }

  setMuted(muted: boolean): void {
    if (this.destroyed) return;
    this.mutedWish = muted;
    if (muted) this.player.mute();
    else this.player.unMute();
  }

  on(event: PlayerEvent, listener: () => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    // Wrapped, so the same function added twice is two listeners and each `off` removes its own.
    const entry = () => listener();
    set.add(entry);
    return () => set.delete(entry);
  }

  colorAt(): string | null {
    return null;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    clearInterval(this.pollTimer);
    if (this.seekTimer) clearInterval(this.seekTimer);
    for (const timeout of this.timeouts) clearTimeout(timeout);
    this.rejectPlay(playAborted());
    this.listeners.clear();
    this.player.destroy();
    this.onDestroy();
  }

  // ---- inside -----------------------------------------------------------------------------------

  private sample() {
    return {
      time: this.currentTime(),
      at: this.now(),
      rate: this.playbackRate(),
      playing: this.player.getPlayerState() === YT_STATE.PLAYING,
    };
  }

  /**
   * A reported state sets `paused` unless a command is pending that it does not confirm (a report of
   * before the command, or UNSTARTED on the way): only PLAYING confirms a play(), and PAUSED, ENDED or
   * CUED a pause().
   */
  private applyState(state: number): void {
    const paused = pausedIn(state);
    if (paused === null) return;
    if (this.intent) {
      const confirms = this.intent.paused
        ? paused && state !== YT_STATE.UNSTARTED
        : state === YT_STATE.PLAYING;
      if (!confirms) return;
      this.intent = null;
    }
    this.setPaused(paused);
    if (state === YT_STATE.ENDED) this.emit('ended');
  }

  /** A seek() has landed once the player reports near its target, playing or paused there (not buffering, not still starting). */
  private checkSeek(): void {
    if (this.destroyed || this.seekSince === null) return;
    this.currentTime(); // drops the anchor once the player agrees, or once it is too old
    const state = this.player.getPlayerState();
    const landed =
      this.seekAnchor === null &&
      (state === YT_STATE.PLAYING || state === YT_STATE.PAUSED || state === YT_STATE.ENDED);
    if (!landed && this.now() - this.seekSince <= YOUTUBE_SEEK_SETTLE_MS) return;
    this.seekSince = null;
    this.seekAnchor = null;
    if (this.seekTimer) clearInterval(this.seekTimer);
    this.seekTimer = null;
    // This move is announced here: the poll must not take it for one of the researcher's.
    this.last = this.sample();
    this.emit('seeked');
  }

  private poll(): void {
    if (this.destroyed) return;
    const state = this.player.getPlayerState();
    if (state === YT_STATE.PLAYING) this.settlePlay();
    this.expireIntent(state);
    // A missed or disbelieved report: the player's state is the truth once no command is pending.
    const paused = pausedIn(state);
    if (!this.intent && paused !== null && paused !== this.isPaused) {
      this.setPaused(paused);
      if (state === YT_STATE.ENDED) this.emit('ended');
    }
    const previous = this.last;
    const current = this.sample();
    this.last = current;
    if (current.playing) this.emit('timeupdate');
    if (this.seekSince !== null) return; // our own seek: its 'seeked' comes from checkSeek
    const elapsed = (current.at - previous.at) / 1000;
    const explained =
      previous.playing || current.playing ? elapsed * Math.max(previous.rate, current.rate) : 0;
    if (
      current.time < previous.time - YOUTUBE_SEEK_JUMP_S ||
      current.time > previous.time + explained + YOUTUBE_SEEK_JUMP_S
    ) {
      this.jumpPending = true;
    }
    this.checkJump(state);
  }

  /**
   * Says 'seeked' for a jump once YouTube no longer buffers there, as a <video> does once its seek
   * has completed: the researcher's status then tells a position that moves from then on.
   */
  private checkJump(state: number): void {
    if (!this.jumpPending || state === YT_STATE.BUFFERING) return;
    this.jumpPending = false;
    this.last = this.sample();
    this.emit('seeked');
  }

  private expireIntent(state: number): void {
    const intent = this.intent;
    if (!intent || this.now() < intent.until) return;
    if (!intent.paused && this.playWaiters.length > 0 && state === YT_STATE.BUFFERING) {
      // Still buffering is progress: a slow network, not a refusal.
      intent.until = this.now() + YOUTUBE_PLAY_START_MS;
      return;
    }
    this.intent = null;
    if (!intent.paused && state !== YT_STATE.PLAYING) this.rejectPlay(playNotAllowed());
  }

  private settlePlay(): void {
    const waiters = this.playWaiters;
    this.playWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  private rejectPlay(error: unknown): void {
    const waiters = this.playWaiters;
    this.playWaiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }

  /** Flips the flag and tells, as a <video> fires 'play' and 'pause' (a task later, when `soon`). */
  private setPaused(paused: boolean, soon = false): void {
    if (paused === this.isPaused) return;
    this.isPaused = paused;
    const event = paused ? 'pause' : 'play';
    if (soon) this.later(() => this.emit(event));
    else this.emit(event);
  }

  private later(task: () => void): void {
    const timeout = setTimeout(() => {
      this.timeouts.delete(timeout);
      if (!this.destroyed) task();
    }, 0);
    this.timeouts.add(timeout);
  }

  private emit(event: PlayerEvent): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        listener();
      } catch (error) {
        // As an event target does: one listener's error neither stops the others nor the player.
        if (typeof reportError === 'function') reportError(error);
        else console.error(error);
      }
    }
  }
}
