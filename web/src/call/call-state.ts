import type { CallLinkState, PeerErrorType } from '@uis/proto';

export type CallRole = 'owner' | 'participant';
export type MediaKind = 'audio' | 'video';
export const MEDIA_KINDS: readonly MediaKind[] = ['audio', 'video'];

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

/** Fatal PeerJS errors: registering again would meet the same refusal. */
export const FATAL_PEER_ERRORS: ReadonlySet<string> = new Set<PeerErrorType>([
  'browser-incompatible',
  'invalid-key',
  'ssl-unavailable',
]);
/** The trouble that goes away once the peer is registered again. */
export const SIGNALLING_TROUBLE: ReadonlySet<string> = new Set<PeerErrorType | 'settings'>([
  'settings',
  'network',
  'server-error',
  'socket-error',
  'socket-closed',
  'unavailable-id',
  'disconnected',
  'invalid-id',
]);

/** A call before it starts: asking for the devices, not registered yet. */
export const initialCallState = (role: CallRole): CallState => ({
  signalling: 'starting',
  local: {
    stream: null,
    hasAudio: false,
    hasVideo: false,
    // Spec section 4: participants are muted by default.
    muted: role === 'participant',
    problem: null,
    acquiring: true,
  },
  remotes: [],
  dialing: false,
  researcherAbsent: false,
  link: role === 'participant' ? 'connecting' : null,
  problem: null,
  ended: null,
});
