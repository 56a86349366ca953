import type { Ack, CallSettings, ClientEventAcks, ClientPayloadOf, ServerPayloadOf } from '@uis/proto';
import type { LiveProblem, ConnectionStatus } from '@uis/live-client';
import type { PeerOptions } from 'peerjs';
import type { CallRole, MediaKind, MediaProblem } from './call-state';
import type { CallTimings } from './call-timings';

// What LiveCall uses of its collaborators: each is a fake in the unit tests.

/** The call's part of the live client's LiveConnection: the peer ids travel through realtime. */
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

/** Tells LiveCall when the browser's network changes: back online, or another connection type. */
export type NetworkWatch = (onChange: () => void) => () => void;

/** Where the page is: the call server answers on the app's own origin, at the settings' path. */
export interface PageLocation {
  hostname: string;
  port: string;
  protocol: string;
}

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
