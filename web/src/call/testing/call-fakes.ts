import { peerIdFor } from '@uis/proto/browser';
import type { CallSettings } from '@uis/proto';
import { vi, type Mock } from 'vitest';
import { fakeLiveConnection } from '../../testing/fake-live-connection';
import type { CallMedia, CallPeer, CallPeerError, CallSignalling, LiveCallOptions } from '../call-ports';
import type { MediaKind } from '../call-state';
import { LiveCall } from '../live-call';

// The call's unit tests: ids, settings, and fakes of the browser's media, PeerJS and the live connection.

export const sessionId = '00000000-0000-4000-8000-0000000000aa';
export const otherSession = '00000000-0000-4000-8000-0000000000ff';
export const researcherUser = '00000000-0000-4000-8000-000000000001';
export const patUser = '00000000-0000-4000-8000-000000000002';
export const samUser = '00000000-0000-4000-8000-000000000003';
export const strangerUser = '00000000-0000-4000-8000-000000000004';
const ROSTER: Record<string, string> = { [patUser]: 'Pat', [samUser]: 'Sam' };
export const researcherId = peerIdFor(sessionId, researcherUser, 'r1');
export const settings: CallSettings = {
  iceServers: [{ urls: 'stun:stun.example.org:3478' }],
  iceTransportPolicy: 'all',
  expiresAt: null,
  peerPath: '/stream',
  key: 'peerjs',
};
/** Settings with TURN credentials of ours, expiring an hour after `now`. */
export const turnSettings = (now: number, credential = 'hmac-1'): CallSettings => ({
  ...settings,
  iceServers: [
    {
      urls: 'turn:turn.example.org:3478',
      username: `${Math.floor(now / 1000) + 3600}:${patUser}`,
      credential,
    },
  ],
  iceTransportPolicy: 'relay',
  expiresAt: now + 3_600_000,
});

// ---- Fakes: the browser's media, PeerJS and the live connection, at their edges ---------------

type Handler = (...args: never[]) => void;

class Emitter {
  private readonly handlers = new Map<string, Set<Handler>>();
  on(event: string, handler: Handler): this {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler);
    this.handlers.set(event, set);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) (handler as (...args: unknown[]) => void)(...args);
  }
}

interface FakeTrack extends MediaStreamTrack {
  label: string;
}

/** How often a fake track was stopped. */
export const stopCalls = (track: MediaStreamTrack) =>
  (track as unknown as { stop: Mock }).stop.mock.calls.length;

export const fakeTrack = (kind: MediaKind, label: string): FakeTrack =>
  ({ kind, label, enabled: true, stop: vi.fn() }) as unknown as FakeTrack;

export const fakeStream = (tracks: MediaStreamTrack[]): MediaStream =>
  ({
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((track) => track.kind === 'audio'),
    getVideoTracks: () => tracks.filter((track) => track.kind === 'video'),
  }) as unknown as MediaStream;

/**
 * An RTCPeerConnection of one sender per track, as PeerJS's addTrack makes; `gather` and
 * `turnError` play the browser's ICE gathering.
 */
function fakePeerConnection(stream: MediaStream | undefined) {
  const transceivers = (stream?.getTracks() ?? []).map((track) => {
    const sender = {
      track: track as MediaStreamTrack | null,
      replaceTrack: vi.fn((next: MediaStreamTrack | null) => {
        sender.track = next;
        return Promise.resolve();
      }),
    };
    return { sender, receiver: { track: { kind: track.kind } } };
  });
  const events = new EventTarget();
  const pc = {
    transceivers,
    iceGatheringState: 'new' as RTCIceGatheringState,
    getSenders: () => transceivers.map((transceiver) => transceiver.sender),
    getTransceivers: () => transceivers,
    addEventListener: events.addEventListener.bind(events),
    /** Gathering ends with these candidates (none: nothing to connect with). */
    gather(candidates: string[]) {
      for (const candidate of candidates) {
        events.dispatchEvent(Object.assign(new Event('icecandidate'), { candidate: { candidate } }));
      }
      pc.iceGatheringState = 'complete';
      events.dispatchEvent(new Event('icegatheringstatechange'));
    },
    /** The TURN server answered the allocation with `errorCode` (701: it could not be reached). */
    turnError(errorCode: number) {
      events.dispatchEvent(
        Object.assign(new Event('icecandidateerror'), { url: 'turn:turn.example.org:3478', errorCode }),
      );
    },
  };
  return pc;
}

class FakeConnection extends Emitter {
  closed = false;
  answered: MediaStream | undefined;
  peerConnection: ReturnType<typeof fakePeerConnection> | null;
  constructor(
    readonly peer: string,
    readonly connectionId: string,
    readonly metadata: unknown,
    readonly sent?: MediaStream,
  ) {
    super();
    this.peerConnection = sent ? fakePeerConnection(sent) : null;
  }
  answer(stream?: MediaStream): void {
    this.answered = stream;
    this.peerConnection = fakePeerConnection(stream);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
  get senders() {
    return this.peerConnection?.getSenders() ?? [];
  }
}

let connectionCount = 0;

class FakePeer extends Emitter {
  open = false;
  disconnected = false;
  destroyed = false;
  readonly calls: FakeConnection[] = [];
  readonly reconnect = vi.fn(() => {
    this.disconnected = false;
  });
  constructor(
    readonly id: string,
    readonly options: unknown,
  ) {
    super();
  }
  call(peerId: string, stream: MediaStream, { metadata }: { metadata: unknown }): FakeConnection {
    const connection = new FakeConnection(peerId, `mc_${++connectionCount}`, metadata, stream);
    this.calls.push(connection);
    return connection;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const connection of this.calls) connection.close();
    this.emit('close');
  }
  /** The call server accepted the registration. */
  opened(): void {
    this.open = true;
    this.disconnected = false;
    this.emit('open', this.id);
  }
  fail(type: string): void {
    this.emit('error', { type, message: `${type}!` } satisfies CallPeerError);
  }
  lost(): void {
    this.open = false;
    this.disconnected = true;
    this.emit('disconnected', this.id);
  }
  /** A participant calls this (researcher's) peer. */
  incoming(from: string, name?: string): FakeConnection {
    const connection = new FakeConnection(from, `mc_${++connectionCount}`, name ? { name } : undefined);
    this.emit('call', connection);
    return connection;
  }
}

function fakeMedia(devices: Devices) {
  const got: FakeTrack[] = [];
  const standIns = { audio: fakeTrack('audio', 'silence'), video: fakeTrack('video', 'black') };
  const getUserMedia = vi.fn((constraints: MediaStreamConstraints) => {
    const wanted = (['audio', 'video'] as const).filter((kind) => constraints[kind]);
    if (wanted.some((kind) => !devices[kind])) {
      return Promise.reject(new DOMException('no device', devices.error ?? 'NotFoundError'));
    }
    const tracks = wanted.map((kind) => fakeTrack(kind, `${kind} ${got.length}`));
    got.push(...tracks);
    return Promise.resolve(fakeStream(tracks));
  });
  const release = vi.fn();
  const media: CallMedia = {
    getUserMedia,
    standIn: (kind) => standIns[kind],
    stream: fakeStream,
    release,
  };
  return { media, got, standIns, getUserMedia, devices, release };
}

/** The call's signalling is the live connection's: the shared fake, as a CallSignalling. */
function fakeSignalling() {
  const fake = fakeLiveConnection();
  return { ...fake, signalling: fake.connection as unknown as CallSignalling };
}

interface Devices {
  audio: boolean;
  video: boolean;
  /** The DOMException name a missing device fails with. */
  error?: string;
}

export function setUp(
  role: 'owner' | 'participant',
  devices: Devices = { audio: true, video: true },
  extra: Partial<LiveCallOptions> = {},
) {
  const media = fakeMedia(devices);
  const live = fakeSignalling();
  const peers: FakePeer[] = [];
  const instances = ['tab1', 'tab2', 'tab3'];
  const beforeRegister = vi.fn(() => Promise.resolve());
  const onMediaProblem = vi.fn();
  const call = new LiveCall({
    sessionId,
    userId: role === 'owner' ? researcherUser : patUser,
    role,
    name: role === 'owner' ? 'Dr Who' : 'Pat',
    signalling: live.signalling,
    settings: () => Promise.resolve(settings),
    beforeRegister,
    onMediaProblem,
    media: media.media,
    createPeer: (id, options) => {
      const peer = new FakePeer(id, options);
      peers.push(peer);
      return peer as unknown as CallPeer;
    },
    location: { hostname: 'app.test', port: '8443', protocol: 'http:' },
    instance: () => instances.shift() ?? 'tabx',
    // The server's live roster: Pat and Sam are in the session, nobody else.
    vouch: (userId) => Promise.resolve(ROSTER[userId] ?? null),
    ...extra,
  });
  const peer = () => {
    const last = peers.at(-1);
    if (!last) throw new Error('no peer yet');
    return last;
  };
  return { call, media, live, peers, peer, beforeRegister, onMediaProblem };
}

/** Lets the awaited steps of start() (media, settings, token) run. */
export const settle = async () => {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
};
