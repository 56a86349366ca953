import type {
  Ack,
  CallLinkState,
  CallSettings,
  ClientEventAcks,
  ClientPayloadOf,
  PeerErrorType,
  ServerPayloadOf,
} from '@uis/proto';
import {
  PEER_DEFAULTS,
  PEER_INSTANCE_MAX_CHARS,
  REALTIME_RECONNECT_DELAY_MAX_MS,
  REALTIME_RECONNECT_DELAY_MS,
  parsePeerId,
  peerIdFor,
} from '@uis/proto/browser';
import type { LiveProblem, ConnectionStatus } from '@uis/proto/live';
import { Peer, type PeerOptions } from 'peerjs';

/**
 * The chat call (spec sections 1 and 4): the researcher's camera and microphone, participants
 * calling in. A plain class owns the PeerJS peer, its calls and the local media; React subscribes
 * to its state (call-area.tsx).
 *
 * Who calls whom: participants call the researcher, never the other way round. The researcher's
 * peer id travels through realtime: the researcher announces it (`joinVideoChat`) when its peer is
 * registered, again after every reconnect of its live connection or of its peer, and whenever a
 * participant asked and the server knew no id (`syncVideoChat` to the researcher). A participant
 * asks for it (`syncVideoChat`) when its peer is registered and after every reconnect, and calls
 * whatever id it is told (`joinVideoChat`), hanging up a call to an older one. A participant whose
 * call drops asks again by itself; the researcher's `syncVideoChat` makes participants hang up and
 * call again.
 *
 * Media: a participant's microphone starts muted (the sent audio track disabled), the researcher's
 * does not. A page without a camera or microphone still calls and answers with a stream of two
 * stand-in tracks (silent audio, a black canvas) so the offer and answer carry sendrecv audio and
 * video, then replaces them with nothing (`replaceTrack(null)`) so nothing is sent: it receives
 * only. Devices found later (the retry) take their place with `replaceTrack`, without a
 * renegotiation, which PeerJS cannot do.
 *
 * Networks: the ICE servers and TURN credentials come from /getCallSettings, renewed before the
 * credentials expire. A call that cannot connect (ICE failed, or the relay refused its credentials
 * and nothing else can get through) says so in plain words; a participant then calls again, with
 * fresh settings, and at once when the browser reports a network change. That new call is the ICE
 * restart: PeerJS cannot renegotiate a call under way (it closes it when ICE fails, and a second
 * offer replaces the connection), so a fresh RTCPeerConnection gathers candidates on the new network.
 */

export type CallRole = 'owner' | 'participant';
export type MediaKind = 'audio' | 'video';
const KINDS: readonly MediaKind[] = ['audio', 'video'];

// ---- What LiveCall uses of its collaborators (each a fake in the unit tests) --------------------

/** The call's part of proto's LiveConnection: the peer ids travel through realtime. */
export interface CallSignalling {
  readonly state: {
    readonly status: ConnectionStatus;
    readonly accessEnded: string | null;
    readonly problem: LiveProblem | null;
  };
  subscribe(
    listener: (state: {
      readonly status: ConnectionStatus;
      readonly accessEnded: string | null;
      readonly problem: LiveProblem | null;
    }) => void,
  ): () => void;
  on(event: 'joinVideoChat', handler: (payload: ServerPayloadOf<'joinVideoChat'>) => void): () => void;
  on(event: 'syncVideoChat', handler: (payload: ServerPayloadOf<'syncVideoChat'>) => void): () => void;
  ask(
    event: 'joinVideoChat',
    payload: ClientPayloadOf<'joinVideoChat'>,
  ): Promise<Ack<ClientEventAcks['joinVideoChat']>>;
  ask(
    event: 'syncVideoChat',
    payload: ClientPayloadOf<'syncVideoChat'>,
  ): Promise<Ack<ClientEventAcks['syncVideoChat']>>;
}

/** A PeerJS error as the peer emits it. */
export interface CallPeerError {
  type: string;
  message: string;
}

/** What LiveCall uses of a PeerJS MediaConnection. */
export interface CallConnection {
  readonly peer: string;
  readonly connectionId: string;
  readonly metadata: unknown;
  readonly peerConnection: RTCPeerConnection | null;
  on(event: 'stream', handler: (stream: MediaStream) => void): unknown;
  on(event: 'close', handler: () => void): unknown;
  on(event: 'error', handler: (error: CallPeerError) => void): unknown;
  on(event: 'iceStateChanged', handler: (state: RTCIceConnectionState) => void): unknown;
  answer(stream?: MediaStream): void;
  close(): void;
}

/** What LiveCall uses of a PeerJS Peer. */
export interface CallPeer {
  /** PeerJS reads `config` for each new call: renewed TURN credentials go there. */
  readonly options: { config?: RTCConfiguration };
  readonly open: boolean;
  readonly disconnected: boolean;
  readonly destroyed: boolean;
  on(event: 'open', handler: (id: string) => void): unknown;
  on(event: 'call', handler: (connection: CallConnection) => void): unknown;
  on(event: 'disconnected', handler: () => void): unknown;
  on(event: 'close', handler: () => void): unknown;
  on(event: 'error', handler: (error: CallPeerError) => void): unknown;
  call(peerId: string, stream: MediaStream, options: { metadata: unknown }): CallConnection | undefined;
  reconnect(): void;
  destroy(): void;
}

/** The browser's media, behind a seam: devices, stand-in tracks and streams. */
export interface CallMedia {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  /** A track of `kind` that carries nothing (silence, a black frame); the same one on every call. */
  standIn(kind: MediaKind): MediaStreamTrack;
  stream(tracks: MediaStreamTrack[]): MediaStream;
  /** Stops the stand-ins (and the audio context behind the silent one). */
  release(): void;
}

// ---- State ------------------------------------------------------------------------------------

/** Why the camera or the microphone (or both) could not be had. */
export type MediaProblem = 'blocked' | 'missing' | 'busy' | 'unsupported' | 'failed';

export interface LocalMedia {
  /** The camera and microphone this page got (null: none); shown muted, sent on every call. */
  stream: MediaStream | null;
  hasAudio: boolean;
  hasVideo: boolean;
  /** The microphone is off: the sent audio track is disabled. */
  muted: boolean;
  /** Why a device is missing; null when both were had. */
  problem: MediaProblem | null;
  /** Asking the browser for them (at the start and on a retry). */
  acquiring: boolean;
}

/**
 * How a call's media path stands: ICE still connecting (or reconnecting), connected, or failed (no
 * candidate pair works, or no candidate at all: the relay refused and nothing else is allowed).
 */
export type CallLink = CallLinkState;

/** The other end of one call: the researcher for a participant, a participant for the researcher. */
export interface RemoteParty {
  /** The call's id: one tile per call (two tabs of one participant are two calls). */
  key: string;
  peerId: string;
  name: string;
  /** Their audio and video, once the call is answered. */
  stream: MediaStream | null;
  link: CallLink;
}

export type SignallingStatus = 'starting' | 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed';

export interface CallProblem {
  /** `ice`: the call could not connect from this network; `relay`: the TURN server refused this page. */
  kind: PeerErrorType | 'settings' | 'ice' | 'relay';
  text: string;
}

export interface CallState {
  /** The registration with the call server (PeerJS on /stream). */
  signalling: SignallingStatus;
  local: LocalMedia;
  remotes: readonly RemoteParty[];
  /** Participant: a call to the researcher is placed and not answered yet. */
  dialing: boolean;
  /** Participant: the last call found nobody at the researcher's id; it calls when they announce one. */
  researcherAbsent: boolean;
  /**
   * Participant: its call to the researcher (`failed` until a later one connects: the monitor shows
   * who cannot get through); null for the researcher.
   */
  link: CallLink | null;
  /** The call's current trouble, in words; null when there is none. */
  problem: CallProblem | null;
  /** Why the call ended for good (the live session ended or this user's access did); null while it runs. */
  ended: string | null;
}

// ---- Texts ------------------------------------------------------------------------------------

/** Each PeerJS error kind of spec section 8, as a sentence a participant can act on. */
export const PEER_ERROR_TEXTS: Record<PeerErrorType, string> = {
  'browser-incompatible':
    'This browser cannot make video calls. Open the session in a recent Chrome, Edge, Firefox or Safari.',
  disconnected: 'The call lost its link to the call server, so no new calls can start until it reconnects.',
  'invalid-id': 'The call server refused this page’s call id. Reload the page to join the call.',
  'invalid-key': 'The call server refused this app’s key, so the call cannot start. Tell the study team.',
  network: 'Lost the connection to the call server. Reconnecting…',
  'peer-unavailable':
    'The other side of the call is not connected. The call starts again when they are back.',
  'ssl-unavailable': 'The call server needs a secure (https) connection, which is not available here.',
  'server-error': 'The call server could not be reached. Trying again…',
  'socket-error': 'The connection to the call server failed. Reconnecting…',
  'socket-closed': 'The connection to the call server closed unexpectedly. Reconnecting…',
  'unavailable-id': 'This page’s call id is still in use by an earlier connection. Trying again…',
  webrtc: 'The browser could not set up the audio and video connection. Trying again…',
};

export const CALL_TEXTS = {
  settings: 'The call settings could not be loaded. Trying again…',
  iceFailed:
    'The video call could not connect from this network. Try another network (a phone’s hotspot, or home Wi-Fi instead of a campus or office one), or turn off a VPN. Trying again…',
  relayRefused:
    'The call’s relay server turned this browser away, so the call cannot get through this network. Reload the page; if that does not help, tell the study team.',
  ended: 'You have left the call.',
  sessionEnded: 'The live session has ended, and the call with it.',
} as const;

/** What failed when getting the camera and microphone: the line under the spec's toast. */
export function mediaProblemText(problem: MediaProblem, missing: readonly MediaKind[]): string {
  const what =
    missing.length === 2 ? 'camera and microphone' : missing[0] === 'audio' ? 'microphone' : 'camera';
  const rest =
    missing.length === 2
      ? 'You can see and hear the call, but others cannot see or hear you.'
      : missing[0] === 'audio'
        ? 'Others can see you but not hear you.'
        : 'Others can hear you but not see you.';
  switch (problem) {
    case 'blocked':
      return `The browser blocked your ${what}: allow ${missing.length === 2 ? 'them' : 'it'} for this site, then retry. ${rest}`;
    case 'missing':
      return `No ${missing.length === 2 ? 'camera or microphone' : what} was found. ${rest}`;
    case 'busy':
      return `Your ${what} ${missing.length === 2 ? 'are' : 'is'} in use by another application. ${rest}`;
    case 'unsupported':
      return `This page cannot use a camera or microphone (it needs https or a recent browser). ${rest}`;
    case 'failed':
      return `Your ${what} could not be started. ${rest}`;
  }
}

// ---- Timings ----------------------------------------------------------------------------------

export interface CallTimings {
  /** Registration and redial retries back off from this... */
  retryMs: number;
  /** ...to at most this (the live connection's own reconnect delays). */
  retryMaxMs: number;
  /** A participant's call not answered by then is placed again. */
  answerTimeoutMs: number;
  /** A call whose ICE stays disconnected this long is hung up (and a participant calls again). */
  iceDisconnectedMs: number;
  /** TURN credentials are renewed this long before they expire (or halfway, when they live shorter). */
  renewSettingsBeforeMs: number;
}

export const CALL_TIMINGS: CallTimings = {
  retryMs: REALTIME_RECONNECT_DELAY_MS,
  retryMaxMs: REALTIME_RECONNECT_DELAY_MAX_MS,
  answerTimeoutMs: 15_000,
  iceDisconnectedMs: 10_000,
  renewSettingsBeforeMs: 5 * 60_000,
};

// ---- Defaults: the browser's media and PeerJS -------------------------------------------------

/** A random instance for peerIdFor: one per page, so two tabs of one user are two peers. */
export function randomInstance(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(PEER_INSTANCE_MAX_CHARS));
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
}

/** The browser's devices; the stand-ins are a never-painted black canvas and an idle audio graph. */
export function browserMedia(): CallMedia {
  let silence: { context: AudioContext; track: MediaStreamTrack } | null = null;
  let black: MediaStreamTrack | null = null;
  return {
    getUserMedia(constraints) {
      if (!navigator.mediaDevices?.getUserMedia) {
        return Promise.reject(new TypeError('navigator.mediaDevices is not available (insecure context?)'));
      }
      return navigator.mediaDevices.getUserMedia(constraints);
    },
    standIn(kind) {
      if (kind === 'audio') {
        if (!silence) {
          const context = new AudioContext();
          const [track] = context.createMediaStreamDestination().stream.getAudioTracks();
          if (!track) throw new Error('no silent audio track');
          silence = { context, track };
        }
        return silence.track;
      }
      if (!black) {
        const canvas = document.createElement('canvas');
        canvas.width = 16;
        canvas.height = 12;
        canvas.getContext('2d')?.fillRect(0, 0, canvas.width, canvas.height);
        const [track] = canvas.captureStream(0).getVideoTracks();
        if (!track) throw new Error('no black video track');
        black = track;
      }
      return black;
    },
    stream: (tracks) => new MediaStream(tracks),
    release() {
      black?.stop();
      black = null;
      if (silence) {
        silence.track.stop();
        void silence.context.close().catch(() => undefined);
        silence = null;
      }
    },
  };
}

/** Where the page is: the call server answers on the app's own origin, at the settings' path. */
export interface PageLocation {
  hostname: string;
  port: string;
  protocol: string;
}

/** What every RTCPeerConnection of the call is made with. */
export const rtcConfigurationOf = (settings: CallSettings): RTCConfiguration => ({
  iceServers: settings.iceServers,
  iceTransportPolicy: settings.iceTransportPolicy,
});

export function peerOptionsFor(settings: CallSettings, location: PageLocation): PeerOptions {
  const secure = location.protocol === 'https:';
  return {
    host: location.hostname,
    port: Number(location.port) || (secure ? PEER_DEFAULTS.signallingPort : 80),
    path: settings.peerPath,
    key: settings.key,
    secure,
    config: rtcConfigurationOf(settings),
    pingInterval: PEER_DEFAULTS.heartbeatMs,
    debug: 0,
  };
}

/** Tells LiveCall when the browser's network changes: back online, or another connection type. */
export type NetworkWatch = (onChange: () => void) => () => void;

/** `online`, and the Network Information API's `change` where the browser has it (Chromium). */
export const browserNetworkWatch: NetworkWatch = (onChange) => {
  const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
  window.addEventListener('online', onChange);
  connection?.addEventListener('change', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    connection?.removeEventListener('change', onChange);
  };
};

/** PeerJS's Peer: its typings fit CallPeer, the parts LiveCall uses. */
const createPeerJsPeer = (id: string, options: PeerOptions): CallPeer => new Peer(id, options);

// ---- Local media ------------------------------------------------------------------------------

function problemOf(error: unknown): MediaProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'blocked';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'AbortError':
      return 'busy';
    case 'TypeError':
      return 'unsupported';
    default:
      return 'failed';
  }
}

interface Acquired {
  tracks: Partial<Record<MediaKind, MediaStreamTrack>>;
  problem: MediaProblem | null;
  missing: MediaKind[];
}

/**
 * Camera and microphone together; when that fails for want of one of them (not a refusal), each
 * alone, so a laptop without a camera still sends its voice.
 */
async function acquire(media: CallMedia): Promise<Acquired> {
  const tracksOf = (stream: MediaStream) => ({
    audio: stream.getAudioTracks()[0],
    video: stream.getVideoTracks()[0],
  });
  let problem: MediaProblem;
  try {
    const tracks = tracksOf(await media.getUserMedia({ audio: true, video: true }));
    if (tracks.audio && tracks.video) return { tracks, problem: null, missing: [] };
    problem = 'missing';
    const missing = KINDS.filter((kind) => !tracks[kind]);
    return { tracks, problem, missing };
  } catch (error) {
    problem = problemOf(error);
  }
  if (problem === 'blocked' || problem === 'unsupported') return { tracks: {}, problem, missing: [...KINDS] };
  const tracks: Partial<Record<MediaKind, MediaStreamTrack>> = {};
  for (const kind of KINDS) {
    try {
      tracks[kind] = tracksOf(await media.getUserMedia({ [kind]: true }))[kind];
    } catch {
      // Missing too: reported with the problem of the first attempt.
    }
  }
  return { tracks, problem, missing: KINDS.filter((kind) => !tracks[kind]) };
}

// ---- The call ---------------------------------------------------------------------------------

export interface LiveCallOptions {
  sessionId: string;
  userId: string;
  role: CallRole;
  /** Sent with a participant's call (for the logs of the call server; the researcher asks the server). */
  name: string;
  /**
   * Researcher: the name of the participant `userId` as the server knows them in this session (its
   * live monitor's), or null when the server does not vouch for them. A call is answered only then,
   * and its tile shows that name: a caller's own metadata could say anything.
   */
  vouch: (userId: string) => Promise<string | null>;
  signalling: CallSignalling;
  /** The ICE servers, path and key (GET /getCallSettings). */
  settings: () => Promise<CallSettings>;
  /** Before every registration with the call server: makes the accessToken cookie it carries current. */
  beforeRegister?: () => Promise<void>;
  /** Told when the camera or microphone (or both) could not be had, at the start and on each retry. */
  onMediaProblem?: (problem: MediaProblem, missing: readonly MediaKind[]) => void;
  media?: CallMedia;
  createPeer?: (id: string, options: PeerOptions) => CallPeer;
  location?: PageLocation;
  instance?: () => string;
  timings?: Partial<CallTimings>;
  network?: NetworkWatch;
}

interface TrackedCall {
  connection: CallConnection;
  remote: RemoteParty;
  answered: boolean;
  /**
   * The TURN server answered an allocation with an error (bad or expired credentials, no room) and
   * gave no relay candidate: an error alone may be one of several servers or transports.
   */
  relayRefused: boolean;
  relayGathered: boolean;
  /** Hung up by this page: no redial follows. */
  hungUp: boolean;
  timers: Set<ReturnType<typeof setTimeout>>;
}

/** Fatal PeerJS errors: registering again would meet the same refusal. */
const FATAL: ReadonlySet<string> = new Set<PeerErrorType>([
  'browser-incompatible',
  'invalid-key',
  'ssl-unavailable',
]);
/** The trouble that goes away once the peer is registered again. */
const SIGNALLING_TROUBLE: ReadonlySet<string> = new Set<PeerErrorType | 'settings'>([
  'settings',
  'network',
  'server-error',
  'socket-error',
  'socket-closed',
  'unavailable-id',
  'disconnected',
  'invalid-id',
]);

export const RESEARCHER_LABEL = 'Researcher';

const isTurnRefusal = (event: RTCPeerConnectionIceErrorEvent) =>
  /^turns?:/.test(event.url) && event.errorCode >= 400 && event.errorCode < 700;

export class LiveCall {
  private readonly sessionId: string;
  private readonly media: CallMedia;
  private readonly timings: CallTimings;
  private readonly listeners = new Set<(state: CallState) => void>();
  private readonly calls = new Map<string, TrackedCall>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly unsubscribe: (() => void)[] = [];
  private snapshot: CallState;
  private peer: CallPeer | null = null;
  private peerId: string | null = null;
  private settings: CallSettings | null = null;
  private sent: Partial<Record<MediaKind, MediaStreamTrack>> = {};
  private liveStatus: ConnectionStatus;
  private registerAttempts = 0;
  private redialAttempts = 0;
  private lastError: string | null = null;
  /** When the browser last reported a network change (epoch ms). */
  private networkChangedAt = 0;
  /** The timer that renews the settings before their TURN credentials expire. */
  private renewal: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private closed = false;

  constructor(private readonly options: LiveCallOptions) {
    this.sessionId = options.sessionId.toLowerCase();
    this.media = options.media ?? browserMedia();
    this.timings = { ...CALL_TIMINGS, ...options.timings };
    this.liveStatus = options.signalling.state.status;
    this.snapshot = {
      signalling: 'starting',
      local: {
        stream: null,
        hasAudio: false,
        hasVideo: false,
        // Spec section 4: participants are muted by default.
        muted: options.role === 'participant',
        problem: null,
        acquiring: true,
      },
      remotes: [],
      dialing: false,
      researcherAbsent: false,
      link: options.role === 'participant' ? 'connecting' : null,
      problem: null,
      ended: null,
    };
  }

  get state(): CallState {
    return this.snapshot;
  }

  /** This page's peer id on the call server (null before the first registration). */
  get id(): string | null {
    return this.peerId;
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
    await this.register();
  }

  /** Turns the sent microphone on or off (the track's `enabled`, on every call at once). */
  setMuted(muted: boolean): void {
    if (this.closed) return;
    if (this.sent.audio) this.sent.audio.enabled = !muted;
    this.publish({ local: { ...this.snapshot.local, muted } });
  }

  /** Asks for the camera and microphone again; what is found is sent on the calls under way at once. */
  async retryMedia(): Promise<void> {
    if (this.closed || this.snapshot.local.acquiring) return;
    await this.acquireMedia();
    if (this.closed) return;
    for (const tracked of this.calls.values()) this.sendRealTracks(tracked.connection);
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
    if (!this.peer?.open) return;
    if (this.options.role === 'owner') this.announce();
    else this.askForResearcher();
  }

  private announce(): void {
    if (!this.peer?.open || !this.peerId) return;
    this.options.signalling
      .ask('joinVideoChat', { userId: this.peerId, sessionId: this.options.sessionId })
      .catch(() => undefined);
  }

  private askForResearcher(): void {
    if (!this.peer?.open) return;
    this.options.signalling
      .ask('syncVideoChat', { sessionId: this.options.sessionId })
      .catch(() => undefined);
  }

  // ---- Registration ---------------------------------------------------------------------------

  private async register(): Promise<void> {
    this.publish({ signalling: this.registerAttempts === 0 ? 'connecting' : 'reconnecting' });
    try {
      if (!this.settings) await this.loadSettings();
      await this.options.beforeRegister?.();
    } catch {
      if (this.closed) return;
      this.publish({ problem: { kind: 'settings', text: CALL_TEXTS.settings } });
      this.retryLater(() => void this.register());
      return;
    }
    if (this.closed) return;
    const peerId = peerIdFor(
      this.sessionId,
      this.options.userId,
      (this.options.instance ?? randomInstance)(),
    );
    const peer = (this.options.createPeer ?? createPeerJsPeer)(
      peerId,
      peerOptionsFor(this.settings!, this.options.location ?? window.location),
    );
    this.peer = peer;
    this.peerId = peerId;
    this.lastError = null;
    peer.on('open', () => {
      if (peer !== this.peer || this.closed) return;
      this.registerAttempts = 0;
      const problem =
        this.snapshot.problem && SIGNALLING_TROUBLE.has(this.snapshot.problem.kind)
          ? null
          : this.snapshot.problem;
      this.publish({ signalling: 'open', problem });
      this.peerReady();
    });
    peer.on('call', (connection) => this.incoming(connection));
    peer.on('error', (error) => {
      if (peer === this.peer && !this.closed) this.peerError(error);
    });
    peer.on('disconnected', () => {
      if (peer !== this.peer || this.closed || peer.destroyed) return;
      // Calls under way go on without the call server; new ones wait for the registration.
      this.publish({ signalling: 'reconnecting' });
      this.retryLater(async () => {
        try {
          await this.options.beforeRegister?.();
        } catch {
          // Registering with the old token fails too, and this loop tries again.
        }
        if (peer === this.peer && !this.closed && peer.disconnected && !peer.destroyed) peer.reconnect();
      });
    });
    peer.on('close', () => {
      if (peer !== this.peer || this.closed) return;
      // Destroyed by PeerJS (a refusal before the first registration): a new peer, under a new id.
      this.peer = null;
      this.dropAll();
      if (this.lastError && FATAL.has(this.lastError)) {
        this.publish({ signalling: 'failed' });
        return;
      }
      this.publish({ signalling: 'reconnecting' });
      this.retryLater(() => void this.register());
    });
  }

  // ---- Settings and networks -------------------------------------------------------------------

  /**
   * Fetches the call settings; the registered peer makes its next calls with them (PeerJS reads
   * its `config` for each new RTCPeerConnection), and their renewal is planned before the TURN
   * credentials in them expire.
   */
  private async loadSettings(): Promise<void> {
    const settings = await this.options.settings();
    if (this.closed) return;
    this.settings = settings;
    if (this.peer) this.peer.options.config = rtcConfigurationOf(settings);
    this.planRenewal(settings);
  }

  private planRenewal(settings: CallSettings): void {
    if (this.renewal !== undefined) this.cancel(this.renewal);
    this.renewal = undefined;
    if (settings.expiresAt === null) return;
    const left = settings.expiresAt - Date.now();
    const delay = Math.max(0, left - Math.min(this.timings.renewSettingsBeforeMs, left / 2));
    this.renewal = this.later(delay, () => this.renewSettings());
  }

  /** Renews the settings now; on failure tries again, backing off, while the old ones still serve. */
  private async renewSettings(attempt = 0): Promise<void> {
    try {
      await this.loadSettings();
    } catch {
      if (this.renewal !== undefined) this.cancel(this.renewal);
      this.renewal = this.later(this.backoff(attempt), () => this.renewSettings(attempt + 1));
    }
  }

  /**
   * The browser is on a network again, or on another one: fresh settings (credentials may have
   * lapsed meanwhile), then a participant whose call is not connected calls again at once: a new
   * call gathers candidates on this network (the ICE restart PeerJS allows).
   */
  private async networkChanged(): Promise<void> {
    if (this.closed) return;
    this.networkChangedAt = Date.now();
    await this.renewSettings();
    if (this.closed || this.options.role !== 'participant') return;
    const current = this.current();
    if (current?.remote.link === 'connected') return;
    if (current) this.hangUp(current);
    this.redialAttempts = 0;
    this.publish({ dialing: false });
    this.askForResearcher();
  }

  /** The call's transport, as the browser reports it: how it connects, and why it cannot. */
  private watchTransport(tracked: TrackedCall): void {
    const pc = tracked.connection.peerConnection;
    if (!pc) return;
    let candidates = 0;
    pc.addEventListener('icecandidate', (event) => {
      const candidate = event.candidate?.candidate;
      if (!candidate) return;
      candidates += 1;
      if (/ typ relay( |$)/.test(candidate)) tracked.relayGathered = true;
    });
    pc.addEventListener('icecandidateerror', (event) => {
      if (isTurnRefusal(event)) tracked.relayRefused = true;
    });
    pc.addEventListener('icegatheringstatechange', () => {
      // Gathering done without one candidate (relay only, and the relay said no): nothing can connect.
      if (pc.iceGatheringState === 'complete' && candidates === 0) this.linkFailed(tracked);
    });
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
    if (refused) void this.renewSettings();
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
    this.lastError = kind;
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
    const peer = this.peer;
    // Not registered yet: it asks for the id once it is.
    if (!peer?.open) return;
    const connection = peer.call(researcherId, this.outgoingStream(), {
      metadata: { name: this.options.name },
    });
    if (!connection) return;
    const tracked = this.track(connection, RESEARCHER_LABEL);
    this.watchTransport(tracked);
    this.silenceStandIns(connection);
    this.publish({ dialing: true, researcherAbsent: false });
    this.after(tracked, this.timings.answerTimeoutMs, () => {
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
    connection.answer(this.outgoingStream());
    this.watchTransport(tracked);
    this.silenceStandIns(connection);
  }

  private track(connection: CallConnection, name: string): TrackedCall {
    const tracked: TrackedCall = {
      connection,
      remote: {
        key: connection.connectionId,
        peerId: connection.peer,
        name,
        stream: null,
        link: 'connecting',
      },
      answered: false,
      relayRefused: false,
      relayGathered: false,
      hungUp: false,
      timers: new Set(),
    };
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
        disconnectedTimer ??= this.after(tracked, recentChange ? 0 : this.timings.iceDisconnectedMs, () => {
          connection.close();
          this.dropped(tracked);
        });
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
    this.later(this.backoff(attempt), () => {
      if (!this.current()) this.askForResearcher();
    });
  }

  // ---- Media ----------------------------------------------------------------------------------

  private async acquireMedia(): Promise<void> {
    this.publish({ local: { ...this.snapshot.local, acquiring: true } });
    const got = await acquire(this.media);
    if (this.closed) {
      for (const track of Object.values(got.tracks)) track.stop();
      return;
    }
    for (const kind of KINDS) {
      const track = got.tracks[kind];
      if (!track) continue;
      const old = this.sent[kind];
      if (old && old !== track) old.stop();
      this.sent[kind] = track;
    }
    const { muted } = this.snapshot.local;
    if (this.sent.audio) this.sent.audio.enabled = !muted;
    const tracks = KINDS.flatMap((kind) => this.sent[kind] ?? []);
    const missing = KINDS.filter((kind) => !this.sent[kind]);
    const problem = missing.length > 0 ? (got.problem ?? 'missing') : null;
    this.publish({
      local: {
        stream: tracks.length > 0 ? this.media.stream(tracks) : null,
        hasAudio: Boolean(this.sent.audio),
        hasVideo: Boolean(this.sent.video),
        muted,
        problem,
        acquiring: false,
      },
    });
    if (problem) this.options.onMediaProblem?.(problem, missing);
  }

  /** What a call sends: the devices this page has, stand-ins for the others (see the top). */
  private outgoingStream(): MediaStream {
    return this.media.stream(KINDS.map((kind) => this.sent[kind] ?? this.media.standIn(kind)));
  }

  /** Stand-ins only make the offer and answer ask for audio and video: they are never sent. */
  private silenceStandIns(connection: CallConnection): void {
    for (const sender of connection.peerConnection?.getSenders() ?? []) {
      const { track } = sender;
      if (track && !this.isSent(track)) sender.replaceTrack(null).catch(() => undefined);
    }
  }

  /** Devices found by a retry go out on a call under way, in place of the stand-ins. */
  private sendRealTracks(connection: CallConnection): void {
    for (const transceiver of connection.peerConnection?.getTransceivers() ?? []) {
      const kind = transceiver.receiver.track.kind as MediaKind;
      const track = this.sent[kind];
      if (track && transceiver.sender.track !== track) {
        transceiver.sender.replaceTrack(track).catch(() => undefined);
      }
    }
  }

  private isSent(track: MediaStreamTrack): boolean {
    return track === this.sent.audio || track === this.sent.video;
  }

  // ---- Plumbing -------------------------------------------------------------------------------

  private shutdown(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.dropAll();
    this.peer?.destroy();
    this.peer = null;
    for (const track of Object.values(this.sent)) track.stop();
    this.sent = {};
    this.media.release();
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

  private retryLater(action: () => void | Promise<void>): void {
    const attempt = this.registerAttempts;
    this.registerAttempts += 1;
    this.later(this.backoff(attempt), action);
  }

  private later(delay: number, action: () => void | Promise<void>): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) void action();
    }, delay);
    this.timers.add(timer);
    return timer;
  }

  private cancel(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  /** A timer that ends with the call it belongs to. */
  private after(tracked: TrackedCall, delay: number, action: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      tracked.timers.delete(timer);
      if (!this.closed) action();
    }, delay);
    tracked.timers.add(timer);
    return timer;
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
