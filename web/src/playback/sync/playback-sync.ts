import {
  IGNORE_DRIFT_MS,
  NUDGE_RATE,
  PLAYBACK_RATE_MAX,
  PLAYBACK_RATE_MIN,
  SEEK_DRIFT_MS,
  VIDEO_STATUS_EVERY_MS,
} from '@uis/proto/browser';
import type { StampedVideoStatus } from '@uis/proto';
import type { LiveLink } from '../live-link';
import type { PlayerAdapter } from '../players/player';

/** The researcher owns the session's playback; participants follow it. */
export type PlaybackRole = 'owner' | 'participant';

/** How often a participant compares where it is with where the researcher is. */
export const CORRECT_EVERY_MS = 250;
/** A nudge aims to close the drift in about this long: the rate changes by drift / this, capped. */
export const CATCH_UP_MS = 500;
/** A nudge ends (the researcher's rate again) once the drift is under this. */
export const CLOSE_ENOUGH_MS = IGNORE_DRIFT_MS / 2;
/** A paused participant seeks to the researcher's exact frame: any difference over this is sought away. */
export const PAUSED_TOLERANCE_MS = 1;
/** A participant starting far off lands this far ahead of the researcher, then waits for it. */
export const START_AHEAD_MS = 500;
/** How long after a timed start its accuracy is measured (the picture is moving by then). */
const START_CHECK_MS = 300;
const MAX_START_LATENCY_MS = 500;
/**
 * A seek that lands this far or further from the researcher is made good by a timed start rather
 * than by the nudge, which would take 10 times as long (2.5 s for 250 ms): ahead, the player waits
 * paused for the researcher; behind, it seeks again further ahead, paused (at most MAX_RESEEKS times
 * in a row). What a seek takes varies (a frame at hand or one to fetch and decode, a busy machine),
 * so the lead it aims by is sometimes wrong.
 */
export const MISSED_SEEK_MS = 200;
export const MAX_RESEEKS = 2;
/** A seek that has not completed by then is taken as done, so a stalled one cannot freeze the sync. */
export const SEEK_TIMEOUT_MS = 3000;
/**
 * The researcher's status is sent again this long after play and seeked: those events come when
 * playback is asked for, and the picture may start moving a little later.
 */
export const SETTLED_STATUS_MS = 300;
/**
 * The researcher's video departing this far from where its last status says it is (a stall, a clock
 * that runs off) is sent at once, rather than at the next periodic status.
 */
export const DEPARTED_MS = IGNORE_DRIFT_MS / 2;
/** How long a researcher's page waits, on load, for the room's last status to continue from. */
export const RESTORE_WAIT_MS = 3000;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Where the researcher's video is at server time `now`, from a status stamped `at`. */
export function positionAt(status: StampedVideoStatus, now: number): number {
  if (status.paused) return status.currentTime;
  return Math.max(0, status.currentTime + ((now - status.at) / 1000) * status.playbackRate);
}

/** What a participant's seek leads to once it lands (see PlaybackSync's `afterSeek`). */
type AfterSeek = 'correct' | 'start' | 'land';

export type SyncStep = { kind: 'seek' } | { kind: 'rate'; rate: number; nudging: boolean };

/**
 * What a playing participant does about `driftMs` (its position minus the researcher's; positive:
 * ahead): past SEEK_DRIFT_MS it seeks; under IGNORE_DRIFT_MS it keeps the researcher's rate (once
 * nudging, until under CLOSE_ENOUGH_MS, so it does not stop at the edge and start again); between,
 * the rate is nudged in proportion to the drift, by at most NUDGE_RATE either way.
 */
export function syncStep(driftMs: number, researcherRate: number, nudging: boolean): SyncStep {
  const size = Math.abs(driftMs);
  if (size >= SEEK_DRIFT_MS) return { kind: 'seek' };
  if (size < (nudging ? CLOSE_ENOUGH_MS : IGNORE_DRIFT_MS)) {
    return { kind: 'rate', rate: researcherRate, nudging: false };
  }
  const correction = clamp(-driftMs / CATCH_UP_MS, -NUDGE_RATE, NUDGE_RATE);
  return { kind: 'rate', rate: researcherRate * (1 + correction), nudging: true };
}

const isNotAllowed = (error: unknown) => error instanceof Error && error.name === 'NotAllowedError';

export interface PlaybackSyncOptions {
  player: PlayerAdapter;
  link: LiveLink;
  sessionId: string;
  role: PlaybackRole;
  /** The browser refused to start playback without a user gesture (true), or it plays now (false). */
  onBlockedChange?: (blocked: boolean) => void;
}

/**
 * Shared playback on any PlayerAdapter and live link (spec section 4, "Video session"). Every client
 * knows the server's clock. The researcher's client sends its status stamped with that clock on
 * every play, pause, seek and rate change, and every VIDEO_STATUS_EVERY_MS while playing; it answers
 * the server's `syncVideoStatus`; on load it continues from the room's last status. A participant asks
 * for the status on joining and after every reconnect, works out where the researcher is now from
 * it, and corrects: small drift ignored, medium drift closed by nudging the rate, large drift sought
 * away (aimed ahead by what seeks take; a landing that missed is made good by a timed start); a
 * paused status is sought to and paused at. When the browser blocks playback without a
 * gesture, `onBlockedChange` says so and `resume()` (called from a click) starts it.
 */
export class PlaybackSync {
  private readonly offs: Array<() => void> = [];
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** The researcher's last status (participants). */
  private target: StampedVideoStatus | null = null;
  /** When the last seek was asked, until it completes (or SEEK_TIMEOUT_MS passes). */
  private seekingSince: number | null = null;
  /** When the last seek during playback was asked (its duration teaches `seekLeadMs`). */
  private seekStartedAt: number | null = null;
  /** How much further ahead a seek aims: what the last seeks took (the researcher moved on meanwhile). */
  private seekLeadMs = 0;
  /** Seeks in a row made because the one before landed behind (see MISSED_SEEK_MS). */
  private reseeks = 0;
  private nudging = false;
  /**
   * What the pending seek's 'seeked' leads to: a correction, a timed start (the player waits paused
   * on a frame ahead), or a look at how far a seek while playing missed.
   */
  private afterSeek: AfterSeek = 'correct';
  /** A start waiting for the researcher to reach this player's frame. */
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  /** What a start takes, from play() to a moving picture (learnt from the last timed start). */
  private startLatencyMs = 0;
  /** When to measure how on time the last timed start was. */
  private startCheckAt: number | null = null;
  /** When a play() that has not settled yet was asked (null: none). */
  private playPendingSince: number | null = null;
  private ended = false;
  private blocked = false;
  /** The researcher's last status sent. */
  private lastSent: StampedVideoStatus | null = null;
  /** A researcher's page waiting for the room's last status. */
  private restoring = false;
  private stopped = false;

  constructor(private readonly options: PlaybackSyncOptions) {}

  get isBlocked(): boolean {
    return this.blocked;
  }

  start(): void {
    if (this.options.role === 'owner') this.startOwner();
    else this.startParticipant();
  }

  /** From a user gesture: starts the playback the browser blocked. */
  resume(): void {
    this.setBlocked(false);
    const { player, role } = this.options;
    const status = this.target;
    if (role === 'participant') {
      if (!status || status.paused) return;
      const want = positionAt(status, this.now());
      if (Math.abs(player.currentTime() - want) * 1000 > IGNORE_DRIFT_MS) this.seekTo(want, true);
    }
    // play() now, inside the gesture: after an await the browser may not count it as one.
    this.play();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.startTimer);
    for (const off of this.offs.splice(0)) off();
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    clearInterval(this.ticker);
  }

  // ---- The researcher ---------------------------------------------------------------------------

  private startOwner(): void {
    const { player, link, sessionId } = this.options;
    const sendNowAndSettled = () => {
      this.restoring = false;
      this.send();
      this.later(SETTLED_STATUS_MS, () => this.send());
    };
    this.offs.push(
      player.on('play', sendNowAndSettled),
      player.on('seeked', sendNowAndSettled),
      player.on('pause', () => this.send()),
      player.on('ratechange', () => this.send()),
      link.on('syncVideoStatus', (asked) => {
        if (asked.sessionId === sessionId) this.send();
      }),
      link.on('videoStatus', (status) => this.restore(status)),
      // The room may have missed changes while the socket was away.
      this.onReconnect(() => this.send()),
    );
    // While playing: a status every VIDEO_STATUS_EVERY_MS, and at once when the video departs from
    // what the last one lets participants assume (it stalled, or its clock runs off).
    this.ticker = setInterval(() => {
      if (player.paused()) return;
      const now = this.now();
      const last = this.lastSent;
      if (!last || last.paused || now - last.at >= VIDEO_STATUS_EVERY_MS - CORRECT_EVERY_MS / 2)
        return this.send();
      if (Math.abs(player.currentTime() - positionAt(last, now)) * 1000 > DEPARTED_MS) this.send();
    }, CORRECT_EVERY_MS);
    // A reload continues where the session is: the server answers the owner with the room's last
    // status when it has one, and says nothing otherwise.
    this.restoring = true;
    this.later(RESTORE_WAIT_MS, () => (this.restoring = false));
    this.askStatus();
  }

  private restore(status: StampedVideoStatus): void {
    if (!this.restoring || status.sessionId !== this.options.sessionId) return;
    this.restoring = false;
    const { player } = this.options;
    this.setRate(status.playbackRate);
    const want = positionAt(status, this.now());
    this.seekTo(status.paused ? want : want + (this.seekLeadMs / 1000) * status.playbackRate, !status.paused);
    if (!status.paused) this.play();
    else if (!player.paused()) player.pause();
  }

  private send(): void {
    const { player, link, sessionId } = this.options;
    if (this.stopped || link.state.status !== 'connected') return;
    const status: StampedVideoStatus = {
      sessionId,
      paused: player.paused(),
      currentTime: Math.max(0, player.currentTime()),
      playbackRate: clamp(player.playbackRate(), PLAYBACK_RATE_MIN, PLAYBACK_RATE_MAX),
      at: Math.round(link.clock.now()),
    };
    this.lastSent = status;
    link.ask('videoStatus', status).catch(() => undefined);
  }

  // ---- A participant ----------------------------------------------------------------------------

  private startParticipant(): void {
    const { player, link, sessionId } = this.options;
    this.offs.push(
      link.on('videoStatus', (status) => {
        if (status.sessionId !== sessionId) return;
        this.target = status;
        // A start waiting for the researcher is timed again from the newer status.
        if (this.startTimer !== undefined) {
          clearTimeout(this.startTimer);
          this.startTimer = undefined;
          if (!status.paused) return this.scheduleStart();
        }
        this.correct();
      }),
      player.on('seeked', () => {
        const next = this.afterSeek;
        this.afterSeek = 'correct';
        this.seekDone();
        if (next === 'start') return this.scheduleStart();
        if (next === 'land') return this.land();
        this.correct();
      }),
      player.on('ended', () => (this.ended = true)),
      player.on('play', () => (this.ended = false)),
      this.onReconnect(() => this.askStatus()),
    );
    this.ticker = setInterval(() => this.correct(), CORRECT_EVERY_MS);
    this.askStatus();
  }

  /** Compares where this player is with where the researcher is now, and corrects. */
  private correct(): void {
    const status = this.target;
    if (!status || this.stopped || this.blocked || this.playing() || this.seeking()) return;
    const { player } = this.options;
    const want = positionAt(status, this.now());
    const driftMs = (player.currentTime() - want) * 1000;

    if (this.startCheckAt !== null && !player.paused() && this.now() >= this.startCheckAt) {
      // How late (or early) the last timed start began: the next one makes up for it.
      this.startCheckAt = null;
      this.startLatencyMs = clamp(this.startLatencyMs - driftMs, 0, MAX_START_LATENCY_MS);
    }
    if (status.paused) {
      this.nudging = false;
      if (!player.paused()) player.pause();
      this.setRate(status.playbackRate);
      if (Math.abs(driftMs) > PAUSED_TOLERANCE_MS) this.seekTo(want, false);
      return;
    }
    if (player.paused()) {
      // At the end of the video, as the researcher is: play() would start it over.
      if (this.ended && driftMs <= 0) return;
      this.nudging = false;
      this.setRate(status.playbackRate);
      // Waiting for the researcher to reach the frame this player is on.
      if (this.startTimer !== undefined) return;
      if (Math.abs(driftMs) <= IGNORE_DRIFT_MS) return this.play();
      this.reseeks = 0;
      return this.seekAhead(want, status);
    }
    const step = syncStep(driftMs, status.playbackRate, this.nudging);
    // A timed start is measured before it is nudged: what the nudge made up would be learnt as lateness.
    if (step.kind === 'rate' && this.startCheckAt !== null) return;
    if (step.kind === 'seek') {
      // Playing on: aimed ahead by what seeks take, it usually lands on time (see land()).
      this.reseeks = 0;
      this.nudging = false;
      this.setRate(status.playbackRate);
      this.seekTo(want + (this.seekLeadMs / 1000) * status.playbackRate, true, 'land');
      return;
    }
    this.nudging = step.nudging;
    this.setRate(step.rate);
  }

  /**
   * Joining, or starting far off: lands a little ahead, paused, and starts when the researcher gets
   * there (scheduleStart), rather than start behind by what the seek took; START_AHEAD_MS absorbs a
   * seek slower than the lead learnt.
   */
  private seekAhead(want: number, status: StampedVideoStatus): void {
    const { player } = this.options;
    this.nudging = false;
    this.setRate(status.playbackRate);
    if (!player.paused()) player.pause();
    this.seekTo(want + ((START_AHEAD_MS + this.seekLeadMs) / 1000) * status.playbackRate, true, 'start');
  }

  /** A seek while playing landed: a miss of MISSED_SEEK_MS or more is made good by a timed start. */
  private land(): void {
    const status = this.target;
    const { player } = this.options;
    if (!status || status.paused || this.stopped || this.blocked || player.paused()) return this.correct();
    if (Math.abs(this.aheadOf(status).aheadMs) < MISSED_SEEK_MS) return this.correct();
    player.pause();
    this.scheduleStart();
  }

  /**
   * After a start's seek landed: plays when the researcher reaches this frame (less what a start
   * takes). Landed behind: seeks again when far behind (see MISSED_SEEK_MS), else plays at once and
   * the nudge makes it up.
   */
  private scheduleStart(): void {
    const status = this.target;
    const { player } = this.options;
    if (!status || status.paused || this.stopped || this.blocked || !player.paused()) return this.correct();
    const { want, aheadMs } = this.aheadOf(status);
    if (aheadMs <= -MISSED_SEEK_MS && this.reseeks < MAX_RESEEKS) {
      this.reseeks += 1;
      return this.seekAhead(want, status);
    }
    const waitMs = aheadMs - this.startLatencyMs;
    if (waitMs <= 0) return this.play();
    this.startTimer = setTimeout(() => {
      this.startTimer = undefined;
      this.startCheckAt = this.now() + START_CHECK_MS;
      this.play();
    }, waitMs);
  }

  /** Where the researcher is now, and how long until they reach this player's frame (negative: behind). */
  private aheadOf(status: StampedVideoStatus): { want: number; aheadMs: number } {
    const want = positionAt(status, this.now());
    return { want, aheadMs: ((this.options.player.currentTime() - want) / status.playbackRate) * 1000 };
  }

  // ---- Both -------------------------------------------------------------------------------------

  private askStatus(): void {
    const { link, sessionId } = this.options;
    link.ask('syncVideoStatus', { sessionId }).catch(() => undefined);
  }

  /**
   * `timed`: where the seek lands must match the researcher when it completes (it teaches the lead);
   * `then`: what its 'seeked' leads to.
   */
  private seekTo(seconds: number, timed: boolean, then: AfterSeek = 'correct'): void {
    this.afterSeek = then;
    this.ended = false;
    this.seekStartedAt = timed ? this.now() : null;
    this.seekingSince = this.now();
    this.options.player.seek(Math.max(0, seconds));
  }

  private seeking(): boolean {
    if (this.seekingSince === null) return false;
    if (this.now() - this.seekingSince < SEEK_TIMEOUT_MS) return true;
    this.seekingSince = null;
    return false;
  }

  private seekDone(): void {
    if (this.seekStartedAt !== null) {
      const took = clamp(this.now() - this.seekStartedAt, 0, SEEK_DRIFT_MS);
      this.seekLeadMs = this.seekLeadMs === 0 ? took : (this.seekLeadMs + took) / 2;
    }
    this.seekStartedAt = null;
    this.seekingSince = null;
  }

  private setRate(rate: number): void {
    const { player } = this.options;
    const next = clamp(rate, PLAYBACK_RATE_MIN, PLAYBACK_RATE_MAX);
    if (Math.abs(player.playbackRate() - next) > 1e-4) player.setPlaybackRate(next);
  }

  /** A play() is under way (a stalled one counts as settled after SEEK_TIMEOUT_MS). */
  private playing(): boolean {
    if (this.playPendingSince === null) return false;
    if (this.now() - this.playPendingSince < SEEK_TIMEOUT_MS) return true;
    this.playPendingSince = null;
    return false;
  }

  private play(): void {
    if (this.playing()) return;
    const since = this.now();
    this.playPendingSince = since;
    const settled = () => {
      if (this.playPendingSince === since) this.playPendingSince = null;
    };
    this.options.player.play().then(
      () => {
        settled();
        this.setBlocked(false);
      },
      (error: unknown) => {
        settled();
        // Any other refusal (a pause or a seek interrupted it) is retried by the next correction.
        if (isNotAllowed(error)) this.setBlocked(true);
      },
    );
  }

  private setBlocked(blocked: boolean): void {
    if (this.blocked === blocked || this.stopped) return;
    this.blocked = blocked;
    this.options.onBlockedChange?.(blocked);
  }

  /** Calls back when the socket is back after having been away (not on the first connect). */
  private onReconnect(callback: () => void): () => void {
    const { link } = this.options;
    let previous = link.state.status;
    return link.subscribe(({ status }) => {
      if (status === 'connected' && previous === 'reconnecting') callback();
      previous = status;
    });
  }

  private later(ms: number, callback: () => void): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      callback();
    }, ms);
    this.pending.add(timer);
  }

  private now(): number {
    return this.options.link.clock.now();
  }
}
