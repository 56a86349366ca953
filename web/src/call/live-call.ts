import type { PeerErrorType } from '@uis/proto';
import { parsePeerId } from '@uis/proto/browser';
import type { ConnectionStatus } from '@uis/live-client';
import { browserMedia, browserNetworkWatch } from './browser-adapters';
import type { CallConnection, CallPeerError, LiveCallOptions } from './call-ports';
import { CallSettingsRenewal } from './call-settings';
import {
  SIGNALLING_TROUBLE,
  initialCallState,
  type CallLink,
  type CallProblem,
  type CallState,
} from './call-state';
import { CALL_TEXTS, PEER_ERROR_TEXTS, RESEARCHER_LABEL } from '../i18n/en/call';
import { CALL_TIMINGS, type CallTimings } from './call-timings';
import { CallTimers } from './call-timers';
import { rtcConfigurationOf } from './peer-options';
import { PeerRegistration } from './peer-registration';
import { SentTracks } from './sent-tracks';
import { trackedCall, watchTransport, type TrackedCall } from './tracked-call';

/**
 * The chat call: a plain class owns the PeerJS peer, its calls and the local media; React subscribes
 * to its state (call-area.tsx). Who calls whom, media and networks: README.md beside this file.
 */
export class LiveCall {
  private readonly sessionId: string;
  private readonly tracks: SentTracks;
  private readonly timings: CallTimings;
  private readonly settings: CallSettingsRenewal;
  private readonly registration: PeerRegistration;
  private readonly listeners = new Set<(state: CallState) => void>();
  private readonly calls = new Map<string, TrackedCall>();
  private readonly timers = new CallTimers(() => this.closed);
  private readonly unsubscribe: (() => void)[] = [];
  private snapshot: CallState;
  private liveStatus: ConnectionStatus;
  private redialAttempts = 0;
  /** When the browser last reported a network change (epoch ms). */
  private networkChangedAt = 0;
  private started = false;
  private closed = false;

  constructor(private readonly options: LiveCallOptions) {
    this.sessionId = options.sessionId.toLowerCase();
    this.tracks = new SentTracks(options.media ?? browserMedia());
    this.timings = { ...CALL_TIMINGS, ...options.timings };
    this.settings = new CallSettingsRenewal({
      fetch: options.settings,
      // PeerJS reads its `config` for each new RTCPeerConnection.
      loaded: (settings) => {
        const { peer } = this.registration;
        if (peer) peer.options.config = rtcConfigurationOf(settings);
      },
      timers: this.timers,
      closed: () => this.closed,
      backoff: (attempt) => this.backoff(attempt),
      renewBeforeMs: this.timings.renewSettingsBeforeMs,
    });
    this.registration = new PeerRegistration(
      this.sessionId,
      options,
      this.settings,
      this.timers,
      (attempt) => this.backoff(attempt),
      () => this.closed,
      {
        status: (signalling) => this.publish({ signalling }),
        settingsFailed: () => this.publish({ problem: { kind: 'settings', text: CALL_TEXTS.settings } }),
        open: () => {
          const { problem } = this.snapshot;
          this.publish({
            signalling: 'open',
            problem: problem && SIGNALLING_TROUBLE.has(problem.kind) ? null : problem,
          });
          this.peerReady();
        },
        call: (connection) => this.incoming(connection),
        error: (error) => this.peerError(error),
        destroyed: () => this.dropAll(),
      },
    );
    this.liveStatus = options.signalling.state.status;
    this.snapshot = initialCallState(options.role);
  }

  get state(): CallState {
    return this.snapshot;
  }

  /** This page's peer id on the call server (null before the first registration). */
  get id(): string | null {
    return this.registration.id;
  }

  subscribe(listener: (state: CallState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Camera and microphone, then the registration; the calls follow from the live events. */
  async start(): Promise<void> {
    if (this.started || this.closed) return;
    this.started = true;
    this.listen();
    this.unsubscribe.push((this.options.network ?? browserNetworkWatch)(() => void this.networkChanged()));
    if (this.closed) return;
    await this.acquireMedia();
    if (this.closed) return;
    await this.registration.register();
  }

  /** Turns the sent microphone on or off (the track's `enabled`, on every call at once). */
  setMuted(muted: boolean): void {
    if (this.closed) return;
    this.tracks.setMuted(muted);
    this.publish({ local: { ...this.snapshot.local, muted } });
  }

  /** Asks for the camera and microphone again; what is found is sent on the calls under way at once. */
  async retryMedia(): Promise<void> {
    if (this.closed || this.snapshot.local.acquiring) return;
    await this.acquireMedia();
    if (this.closed) return;
    for (const tracked of this.calls.values()) this.tracks.sendRealTracks(tracked.connection);
  }

  /** Hangs up, leaves the call server and stops the camera and microphone. */
  close(): void {
    this.shutdown(CALL_TEXTS.ended);
  }

  // ---- Live events ----------------------------------------------------------------------------

  private listen(): void {
    const { signalling } = this.options;
    this.unsubscribe.push(
      signalling.on('joinVideoChat', ({ userId: peerId, sessionId }) => {
        if (sessionId.toLowerCase() !== this.sessionId) return;
        // The researcher hears participants' ids too: they call in by themselves.
        if (this.options.role === 'participant') this.dial(peerId);
      }),
      signalling.on('syncVideoChat', ({ sessionId }) => {
        if (sessionId.toLowerCase() !== this.sessionId) return;
        if (this.options.role === 'owner') this.announce();
        else this.callAgain();
      }),
      signalling.subscribe((state) => {
        const was = this.liveStatus;
        this.liveStatus = state.status;
        if (state.status === 'ended') {
          this.shutdown(state.accessEnded ?? state.problem?.message ?? CALL_TEXTS.sessionEnded);
        } else if (state.status === 'connected' && was !== 'connected') {
          // After a reconnect: whatever was announced meanwhile was missed.
          this.peerReady();
        }
      }),
    );
    if (signalling.state.status === 'ended') {
      this.shutdown(
        signalling.state.accessEnded ?? signalling.state.problem?.message ?? CALL_TEXTS.sessionEnded,
      );
    }
  }

  /** The peer is registered (or the live connection is back): announce, or ask whom to call. */
  private peerReady(): void {
    if (!this.registration.peer?.open) return;
    if (this.options.role === 'owner') this.announce();
    else this.askForResearcher();
  }

  private announce(): void {
    const { peer, id } = this.registration;
    if (!peer?.open || !id) return;
    this.options.signalling
      .ask('joinVideoChat', { userId: id, sessionId: this.options.sessionId })
      .catch(() => undefined);
  }

  private askForResearcher(): void {
    if (!this.registration.peer?.open) return;
    this.options.signalling
      .ask('syncVideoChat', { sessionId: this.options.sessionId })
      .catch(() => undefined);
  }

  // ---- Networks, links and errors --------------------------------------------------------------

  /**
   * The browser is on a network again, or on another one: fresh settings (credentials may have
   * lapsed meanwhile), then a participant whose call is not connected calls again at once: a new
   * call gathers candidates on this network (the ICE restart PeerJS allows).
   */
  private async networkChanged(): Promise<void> {
    if (this.closed) return;
    this.networkChangedAt = Date.now();
    await this.settings.renew();
    if (this.closed || this.options.role !== 'participant') return;
    const current = this.current();
    if (current?.remote.link === 'connected') return;
    if (current) this.hangUp(current);
    this.redialAttempts = 0;
    this.publish({ dialing: false });
    this.askForResearcher();
  }

  private linkChanged(tracked: TrackedCall, link: CallLink): void {
    if (this.calls.get(tracked.remote.key) !== tracked || tracked.remote.link === link) return;
    tracked.remote = { ...tracked.remote, link };
    if (link !== 'connected') {
      this.publish(this.options.role === 'participant' ? { link } : {});
      return;
    }
    this.redialAttempts = 0;
    const problem =
      this.snapshot.problem?.kind === 'ice' || this.snapshot.problem?.kind === 'relay'
        ? null
        : this.snapshot.problem;
    this.publish(this.options.role === 'participant' ? { link, problem } : { problem });
  }

  /**
   * The call cannot connect. A participant is told what to try and calls again (with renewed
   * settings: expired credentials are a reason the relay refuses); the researcher is told only when
   * the relay refused their own page, as the monitor shows which participants cannot get through.
   */
  private linkFailed(tracked: TrackedCall): void {
    if (this.calls.get(tracked.remote.key) !== tracked) return;
    const refused = tracked.relayRefused && !tracked.relayGathered;
    const problem: CallProblem = refused
      ? { kind: 'relay', text: CALL_TEXTS.relayRefused }
      : { kind: 'ice', text: CALL_TEXTS.iceFailed };
    if (refused) void this.settings.renew();
    this.hangUp(tracked);
    if (this.options.role === 'participant') {
      this.publish({ link: 'failed', dialing: false, problem });
      this.redialLater();
    } else if (problem.kind === 'relay') {
      this.publish({ problem });
    }
  }

  private peerError(error: CallPeerError): void {
    const kind = error.type as PeerErrorType;
    if (kind === 'peer-unavailable') {
      // Nobody at the researcher's id (they left, or have not come back yet): they announce
      // their id when they do, and the call is placed then.
      const dialed = this.current();
      if (this.options.role === 'participant' && dialed && !dialed.answered) {
        this.hangUp(dialed);
        this.publish({ dialing: false, researcherAbsent: true, problem: null });
      }
      return;
    }
    const text = PEER_ERROR_TEXTS[kind] ?? error.message;
    this.publish({ problem: { kind, text } });
    if (kind === 'webrtc' && this.options.role === 'participant') {
      const dialed = this.current();
      if (dialed && !dialed.answered) {
        this.hangUp(dialed);
        this.publish({ dialing: false });
        this.redialLater();
      }
    }
  }

  // ---- Calls ----------------------------------------------------------------------------------

  /** A participant's one call (to the researcher). */
  private current(): TrackedCall | undefined {
    return this.calls.values().next().value;
  }

  /** Participant: calls the researcher's id, unless a call to it is under way already. */
  private dial(researcherId: string): void {
    if (this.closed || parsePeerId(researcherId)?.sessionId !== this.sessionId) return;
    const current = this.current();
    if (current?.connection.peer === researcherId) return;
    if (current) this.hangUp(current);
    const { peer } = this.registration;
    // Not registered yet: it asks for the id once it is.
    if (!peer?.open) return;
    const connection = peer.call(researcherId, this.tracks.outgoingStream(), {
      metadata: { name: this.options.name },
    });
    if (!connection) return;
    const tracked = this.track(connection, RESEARCHER_LABEL);
    watchTransport(tracked, () => this.linkFailed(tracked));
    this.tracks.silenceStandIns(connection);
    this.publish({ dialing: true, researcherAbsent: false });
    this.timers.after(tracked.timers, this.timings.answerTimeoutMs, () => {
      if (tracked.answered) return;
      this.hangUp(tracked);
      this.publish({ dialing: false });
      this.redialLater();
    });
  }

  /** Participant, at the researcher's request: hang up and call again. */
  private callAgain(): void {
    const current = this.current();
    if (current) this.hangUp(current);
    this.publish({ dialing: false, link: this.linkBetweenCalls() });
    this.askForResearcher();
  }

  /**
   * Researcher: a participant calls in. The call server let only its own user register the caller's
   * peer id (which names the session and the user), and the server's live roster says who that user
   * is: the call is answered under that name, or refused.
   */
  private incoming(connection: CallConnection): void {
    const caller = parsePeerId(connection.peer);
    if (this.closed || this.options.role !== 'owner' || caller?.sessionId !== this.sessionId) {
      connection.close();
      return;
    }
    this.options.vouch(caller.userId).then(
      (name) => (name === null || this.closed ? connection.close() : this.answer(connection, name)),
      () => connection.close(),
    );
  }

  private answer(connection: CallConnection, name: string): void {
    // The same page calling again (after a drop, or when asked to) replaces its earlier call.
    for (const other of [...this.calls.values()]) {
      if (other.connection.peer === connection.peer) this.hangUp(other);
    }
    const tracked = this.track(connection, name);
    connection.answer(this.tracks.outgoingStream());
    watchTransport(tracked, () => this.linkFailed(tracked));
    this.tracks.silenceStandIns(connection);
  }

  private track(connection: CallConnection, name: string): TrackedCall {
    const tracked = trackedCall(connection, name);
    this.calls.set(tracked.remote.key, tracked);
    connection.on('stream', (stream) => {
      if (this.calls.get(tracked.remote.key) !== tracked) return;
      tracked.answered = true;
      this.redialAttempts = 0;
      if (tracked.remote.stream !== stream) tracked.remote = { ...tracked.remote, stream };
      const problem = this.snapshot.problem?.kind === 'webrtc' ? null : this.snapshot.problem;
      this.publish(
        this.options.role === 'participant'
          ? { dialing: false, researcherAbsent: false, problem }
          : { problem },
      );
    });
    connection.on('close', () => this.dropped(tracked));
    connection.on('error', (error) => {
      // ICE failed: PeerJS closes the call after saying so (it cannot restart ICE on it).
      if (error.type === 'negotiation-failed') this.linkFailed(tracked);
      else this.dropped(tracked);
    });
    let disconnectedTimer: ReturnType<typeof setTimeout> | undefined;
    connection.on('iceStateChanged', (state) => {
      if (state === 'connected' || state === 'completed') this.linkChanged(tracked, 'connected');
      else if (state === 'disconnected' || state === 'checking') this.linkChanged(tracked, 'connecting');
      if (state === 'disconnected') {
        // Right after a network change the old path will not come back: call again at once.
        const recentChange = Date.now() - this.networkChangedAt < this.timings.iceDisconnectedMs;
        disconnectedTimer ??= this.timers.after(
          tracked.timers,
          recentChange ? 0 : this.timings.iceDisconnectedMs,
          () => {
            connection.close();
            this.dropped(tracked);
          },
        );
      } else if (disconnectedTimer !== undefined) {
        clearTimeout(disconnectedTimer);
        tracked.timers.delete(disconnectedTimer);
        disconnectedTimer = undefined;
      }
    });
    this.publish({});
    return tracked;
  }

  /** The call ended from the other side (or failed): its tile goes; a participant calls again. */
  private dropped(tracked: TrackedCall): void {
    if (this.calls.get(tracked.remote.key) !== tracked) return;
    this.forget(tracked);
    if (this.options.role === 'participant' && !tracked.hungUp && !this.closed) {
      this.publish({ dialing: false, link: this.linkBetweenCalls() });
      this.redialLater();
    } else {
      this.publish({});
    }
  }

  /** A participant between two calls: still failed if the last one failed, else connecting. */
  private linkBetweenCalls(): CallLink {
    return this.snapshot.link === 'failed' ? 'failed' : 'connecting';
  }

  private hangUp(tracked: TrackedCall): void {
    tracked.hungUp = true;
    this.forget(tracked);
    tracked.connection.close();
    this.publish({});
  }

  private forget(tracked: TrackedCall): void {
    for (const timer of tracked.timers) clearTimeout(timer);
    tracked.timers.clear();
    if (this.calls.get(tracked.remote.key) === tracked) this.calls.delete(tracked.remote.key);
  }

  private dropAll(): void {
    for (const tracked of [...this.calls.values()]) this.hangUp(tracked);
  }

  private redialLater(): void {
    const attempt = this.redialAttempts;
    this.redialAttempts += 1;
    this.timers.later(this.backoff(attempt), () => {
      if (!this.current()) this.askForResearcher();
    });
  }

  // ---- Media ----------------------------------------------------------------------------------

  private async acquireMedia(): Promise<void> {
    this.publish({ local: { ...this.snapshot.local, acquiring: true } });
    const got = await this.tracks.acquire();
    if (this.closed) {
      for (const track of Object.values(got.tracks)) track.stop();
      return;
    }
    const { local, missing } = this.tracks.take(got, this.snapshot.local.muted);
    this.publish({ local });
    if (local.problem) this.options.onMediaProblem?.(local.problem, missing);
  }

  // ---- Plumbing -------------------------------------------------------------------------------

  private shutdown(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.timers.clear();
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.dropAll();
    this.registration.destroy();
    this.tracks.stop();
    this.publish({
      signalling: 'closed',
      local: { ...this.snapshot.local, stream: null, hasAudio: false, hasVideo: false, acquiring: false },
      dialing: false,
      ended: reason,
    });
  }

  private backoff(attempt: number): number {
    return Math.min(this.timings.retryMaxMs, this.timings.retryMs * 2 ** attempt);
  }

  private publish(change: Partial<CallState>): void {
    this.snapshot = {
      ...this.snapshot,
      ...change,
      remotes: [...this.calls.values()].map((tracked) => tracked.remote),
    };
    for (const listener of this.listeners) listener(this.snapshot);
  }
}
