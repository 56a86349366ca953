import { PEER_ERROR_TYPES, peerIdFor } from '@uis/proto/browser';
import type { CallSettings } from '@uis/proto';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeLiveConnection } from '../testing/fake-live-connection';
import {
  CALL_TEXTS,
  CALL_TIMINGS,
  LiveCall,
  PEER_ERROR_TEXTS,
  peerOptionsFor,
  type CallMedia,
  type CallPeer,
  type CallPeerError,
  type CallSignalling,
  type LiveCallOptions,
  type MediaKind,
} from './live-call';

const sessionId = '00000000-0000-4000-8000-0000000000aa';
const otherSession = '00000000-0000-4000-8000-0000000000ff';
const researcherUser = '00000000-0000-4000-8000-000000000001';
const patUser = '00000000-0000-4000-8000-000000000002';
const samUser = '00000000-0000-4000-8000-000000000003';
const strangerUser = '00000000-0000-4000-8000-000000000004';
const ROSTER: Record<string, string> = { [patUser]: 'Pat', [samUser]: 'Sam' };
const researcherId = peerIdFor(sessionId, researcherUser, 'r1');
const settings: CallSettings = {
  iceServers: [{ urls: 'stun:stun.example.org:3478' }],
  iceTransportPolicy: 'all',
  expiresAt: null,
  peerPath: '/stream',
  key: 'peerjs',
};
/** Settings with TURN credentials of ours, expiring an hour after `now`. */
const turnSettings = (now: number, credential = 'hmac-1'): CallSettings => ({
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
const stopCalls = (track: MediaStreamTrack) => (track as unknown as { stop: Mock }).stop.mock.calls.length;

const fakeTrack = (kind: MediaKind, label: string): FakeTrack =>
  ({ kind, label, enabled: true, stop: vi.fn() }) as unknown as FakeTrack;

const fakeStream = (tracks: MediaStreamTrack[]): MediaStream =>
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

function setUp(
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
const settle = async () => {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
};

afterEach(() => {
  vi.useRealTimers();
});

// ---- Participant ------------------------------------------------------------------------------

describe('LiveCall, participant', () => {
  it('joins muted, asks whom to call once registered, and calls the researcher with its camera, microphone and name', async () => {
    const { call, live, peer, media, beforeRegister } = setUp('participant');
    await call.start();
    expect(peer().id).toBe(peerIdFor(sessionId, patUser, 'tab1'));
    expect(peer().options).toMatchObject({
      host: 'app.test',
      port: 8443,
      path: '/stream',
      key: 'peerjs',
      secure: false,
      config: { iceServers: settings.iceServers },
    });
    expect(beforeRegister).toHaveBeenCalledTimes(1);
    const [audio, video] = media.got;
    expect(audio?.enabled).toBe(false);
    expect(call.state.local).toMatchObject({ hasAudio: true, hasVideo: true, muted: true, problem: null });
    expect(live.asked).toEqual([]);

    peer().opened();
    expect(live.asks('syncVideoChat')).toEqual([{ sessionId }]);
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const [dialed] = peer().calls;
    expect(dialed?.peer).toBe(researcherId);
    expect(dialed?.metadata).toEqual({ name: 'Pat' });
    expect(dialed?.sent?.getTracks()).toEqual([audio, video]);
    expect(dialed?.senders.every((sender) => sender.replaceTrack.mock.calls.length === 0)).toBe(true);
    expect(call.state.dialing).toBe(true);

    const remote = fakeStream([fakeTrack('video', 'researcher camera')]);
    dialed?.emit('stream', remote);
    expect(call.state.dialing).toBe(false);
    expect(call.state.remotes).toEqual([
      {
        key: dialed?.connectionId,
        peerId: researcherId,
        name: 'Researcher',
        stream: remote,
        link: 'connecting',
      },
    ]);
    // In the call once ICE connects, not when the answer comes.
    expect(call.state.link).toBe('connecting');
    dialed?.emit('iceStateChanged', 'connected');
    expect(call.state.link).toBe('connected');
    expect(call.state.remotes[0]?.link).toBe('connected');

    // The mute toggle is the sent track's `enabled`.
    call.setMuted(false);
    expect(audio?.enabled).toBe(true);
    expect(call.state.local.muted).toBe(false);
    call.setMuted(true);
    expect(audio?.enabled).toBe(false);

    // The same id announced again (another participant joined): no second call.
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId: otherSession });
    expect(peer().calls).toHaveLength(1);
  });

  it('without camera or microphone, says why and calls receiving only: stand-ins shape the offer, nothing is sent', async () => {
    const { call, live, peer, media, onMediaProblem } = setUp('participant', { audio: false, video: false });
    await call.start();
    // Both together, then each alone (a missing camera must not cost the microphone).
    expect(media.getUserMedia.mock.calls.map(([constraints]) => constraints)).toEqual([
      { audio: true, video: true },
      { audio: true },
      { video: true },
    ]);
    expect(onMediaProblem).toHaveBeenCalledWith('missing', ['audio', 'video']);
    expect(call.state.local).toMatchObject({
      stream: null,
      hasAudio: false,
      hasVideo: false,
      problem: 'missing',
    });

    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const [dialed] = peer().calls;
    // PeerJS needs a stream: the offer asks for (and offers) audio and video...
    expect(dialed?.sent?.getTracks()).toEqual([media.standIns.audio, media.standIns.video]);
    // ...but the stand-ins are taken off the senders at once: this page only receives.
    expect(dialed?.senders.map((sender) => sender.replaceTrack.mock.calls)).toEqual([[[null]], [[null]]]);
    expect(dialed?.senders.map((sender) => sender.track)).toEqual([null, null]);
  });

  it('keeps the microphone when only the camera is missing, and does not ask again after a refusal', async () => {
    const partial = setUp('participant', { audio: true, video: false });
    await partial.call.start();
    expect(partial.onMediaProblem).toHaveBeenCalledWith('missing', ['video']);
    expect(partial.call.state.local).toMatchObject({ hasAudio: true, hasVideo: false, muted: true });

    const blocked = setUp('participant', { audio: true, video: true, error: 'NotAllowedError' });
    blocked.media.devices.audio = false;
    await blocked.call.start();
    expect(blocked.media.getUserMedia).toHaveBeenCalledTimes(1);
    expect(blocked.onMediaProblem).toHaveBeenCalledWith('blocked', ['audio', 'video']);
  });

  it('calls again by itself when its call drops, and follows a new researcher id', async () => {
    vi.useFakeTimers();
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const first = peer().calls[0]!;
    first.emit('stream', fakeStream([]));

    // The researcher's page went away: the call closes from their side.
    first.close();
    expect(call.state.remotes).toEqual([]);
    const asksBefore = live.asks('syncVideoChat').length;
    vi.advanceTimersByTime(CALL_TIMINGS.retryMs);
    expect(live.asks('syncVideoChat')).toHaveLength(asksBefore + 1);

    // The researcher came back (a reload: a new instance, a new id) and announces it.
    const reloaded = peerIdFor(sessionId, researcherUser, 'r2');
    live.serverSends('joinVideoChat', { userId: reloaded, sessionId });
    const second = peer().calls[1]!;
    expect(second.peer).toBe(reloaded);
    second.emit('stream', fakeStream([]));

    // A newer id while in a call (the researcher's second tab): the old call is hung up.
    const newer = peerIdFor(sessionId, researcherUser, 'r3');
    live.serverSends('joinVideoChat', { userId: newer, sessionId });
    expect(second.closed).toBe(true);
    expect(peer().calls[2]?.peer).toBe(newer);
    expect(call.state.remotes.map((remote) => remote.peerId)).toEqual([newer]);

    // The researcher asks everyone to call again (syncVideoChat): hang up, ask, call.
    const asks = live.asks('syncVideoChat').length;
    live.serverSends('syncVideoChat', { sessionId });
    expect(peer().calls[2]?.closed).toBe(true);
    expect(live.asks('syncVideoChat')).toHaveLength(asks + 1);
    live.serverSends('joinVideoChat', { userId: newer, sessionId });
    expect(peer().calls).toHaveLength(4);
    call.close();
  });

  it('asks again after its live connection comes back, and redials an unanswered call', async () => {
    vi.useFakeTimers();
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.setState({ status: 'reconnecting' });
    live.setState({ status: 'connected' });
    expect(live.asks('syncVideoChat')).toHaveLength(2);

    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const unanswered = peer().calls[0]!;
    vi.advanceTimersByTime(CALL_TIMINGS.answerTimeoutMs);
    expect(unanswered.closed).toBe(true);
    vi.advanceTimersByTime(CALL_TIMINGS.retryMs);
    expect(live.asks('syncVideoChat')).toHaveLength(3);
    call.close();
  });

  it('waits for the researcher when nobody holds the id it called, without calling in a loop', async () => {
    vi.useFakeTimers();
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    peer().fail('peer-unavailable');
    expect(peer().calls[0]?.closed).toBe(true);
    expect(call.state).toMatchObject({ researcherAbsent: true, dialing: false, problem: null });
    const asks = live.asks('syncVideoChat').length;
    vi.advanceTimersByTime(60_000);
    expect(live.asks('syncVideoChat')).toHaveLength(asks);

    // They are back and announce themselves.
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    expect(peer().calls).toHaveLength(2);
    expect(call.state.researcherAbsent).toBe(false);
    call.close();
  });
});

describe('LiveCall, participant, across networks', () => {
  it('a call whose ICE fails: says what to try, reports it failed, and calls again until one connects', async () => {
    vi.useFakeTimers();
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const first = peer().calls[0]!;
    first.emit('stream', fakeStream([]));
    first.emit('iceStateChanged', 'checking');
    // PeerJS says so, then closes the call (it cannot restart ICE on it).
    first.emit('error', { type: 'negotiation-failed', message: 'Negotiation failed.' });
    first.close();
    expect(call.state).toMatchObject({
      link: 'failed',
      remotes: [],
      problem: { kind: 'ice', text: CALL_TEXTS.iceFailed },
    });
    expect(CALL_TEXTS.iceFailed).toMatch(/another network.*VPN/);

    const asks = live.asks('syncVideoChat').length;
    vi.advanceTimersByTime(CALL_TIMINGS.retryMs);
    expect(live.asks('syncVideoChat')).toHaveLength(asks + 1);
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const second = peer().calls[1]!;
    // Still failed for the monitor until the new call connects.
    expect(call.state.link).toBe('failed');
    second.emit('iceStateChanged', 'connected');
    expect(call.state).toMatchObject({ link: 'connected', problem: null });
    call.close();
  });

  it('the relay refused and nothing else may connect: the relay message, fresh settings, another call', async () => {
    vi.useFakeTimers();
    const now = Date.now();
    const answers = vi
      .fn<() => Promise<CallSettings>>()
      .mockResolvedValueOnce(turnSettings(now, 'expired'))
      .mockResolvedValue(turnSettings(now, 'fresh'));
    const { call, live, peer } = setUp('participant', undefined, { settings: answers });
    await call.start();
    expect(peer().options).toMatchObject({ config: { iceTransportPolicy: 'relay' } });
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const first = peer().calls[0]!;
    first.peerConnection!.turnError(401);
    first.peerConnection!.gather([]);
    expect(first.closed).toBe(true);
    expect(call.state).toMatchObject({
      link: 'failed',
      problem: { kind: 'relay', text: CALL_TEXTS.relayRefused },
    });
    await vi.advanceTimersByTimeAsync(0);
    // The next call is made with the renewed credentials.
    expect(answers).toHaveBeenCalledTimes(2);
    expect((peer().options as { config: RTCConfiguration }).config.iceServers?.[0]?.credential).toBe('fresh');
    call.close();
  });

  it('a TURN error beside a relay candidate is no refusal: an ICE failure then says so as such', async () => {
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const dialed = peer().calls[0]!;
    dialed.peerConnection!.turnError(401);
    dialed.peerConnection!.gather([
      'candidate:2 1 udp 41885695 203.0.113.7 49160 typ relay raddr 0.0.0.0 rport 0',
    ]);
    expect(dialed.closed).toBe(false);
    dialed.emit('error', { type: 'negotiation-failed', message: 'Negotiation failed.' });
    expect(call.state.problem?.kind).toBe('ice');
    call.close();
  });

  it('a TURN server out of reach is no refusal, and a call with candidates waits for ICE', async () => {
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const dialed = peer().calls[0]!;
    dialed.peerConnection!.turnError(701);
    dialed.peerConnection!.gather(['candidate:1 1 udp 2122260223 192.0.2.10 54321 typ host']);
    expect(dialed.closed).toBe(false);
    expect(call.state).toMatchObject({ link: 'connecting', problem: null });
    call.close();
  });

  it('renews the settings before their credentials expire, for the calls to come', async () => {
    vi.useFakeTimers();
    const now = Date.now();
    const answers = vi
      .fn<() => Promise<CallSettings>>()
      .mockResolvedValueOnce(turnSettings(now, 'first'))
      .mockResolvedValue(turnSettings(now + 3_600_000, 'second'));
    const { call, peer } = setUp('participant', undefined, { settings: answers });
    await call.start();
    const credential = () =>
      (peer().options as { config: RTCConfiguration }).config.iceServers?.[0]?.credential;
    expect(credential()).toBe('first');
    await vi.advanceTimersByTimeAsync(3_600_000 - CALL_TIMINGS.renewSettingsBeforeMs - 1_000);
    expect(answers).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(answers).toHaveBeenCalledTimes(2);
    expect(credential()).toBe('second');
    call.close();
  });

  it('on a network change, renews the settings and calls again at once unless the call is connected', async () => {
    vi.useFakeTimers();
    let networkChanged = () => undefined as void;
    const network = vi.fn((onChange: () => void) => {
      networkChanged = onChange;
      return () => undefined;
    });
    const answers = vi.fn(() => Promise.resolve(settings));
    const { call, live, peer } = setUp('participant', undefined, { network, settings: answers });
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const first = peer().calls[0]!;
    first.emit('iceStateChanged', 'connected');

    // Connected: ICE carries on (or reports trouble), nothing is redone but the settings.
    networkChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveBeenCalledTimes(2);
    expect(first.closed).toBe(false);

    // The old path is gone: the call is placed again at once, not after iceDisconnectedMs.
    first.emit('iceStateChanged', 'disconnected');
    expect(call.state.link).toBe('connecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(first.closed).toBe(true);
    const asks = live.asks('syncVideoChat').length;
    networkChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(live.asks('syncVideoChat')).toHaveLength(asks + 1);
    call.close();
  });
});

// ---- Researcher -------------------------------------------------------------------------------

describe('LiveCall, researcher', () => {
  it('announces its id when registered, after its live connection is back and when a participant asks', async () => {
    const { call, live, peer } = setUp('owner');
    await call.start();
    expect(call.state.local.muted).toBe(false);
    expect(live.asks('joinVideoChat')).toEqual([]);
    peer().opened();
    const announcement = { userId: peerIdFor(sessionId, researcherUser, 'tab1'), sessionId };
    expect(live.asks('joinVideoChat')).toEqual([announcement]);
    live.setState({ status: 'reconnecting' });
    live.setState({ status: 'connected' });
    live.serverSends('syncVideoChat', { sessionId });
    expect(live.asks('joinVideoChat')).toEqual([announcement, announcement, announcement]);
    // A participant's own id reaching the researcher needs nothing: they call in.
    live.serverSends('joinVideoChat', { userId: peerIdFor(sessionId, patUser, 'p1'), sessionId });
    expect(live.asks('joinVideoChat')).toHaveLength(3);
    expect(call.id).toBe(announcement.userId);
  });

  it('answers every participant with its camera and microphone: a tile each, with their name, gone when they leave', async () => {
    const { call, peer, media } = setUp('owner');
    await call.start();
    peer().opened();
    const patPeer = peerIdFor(sessionId, patUser, 'p1');
    const pat = peer().incoming(patPeer, 'Pat');
    // The name shown is the server's, whatever the caller's metadata says.
    const sam = peer().incoming(peerIdFor(sessionId, samUser, 's1'), 'The Researcher');
    const nameless = peer().incoming(peerIdFor(sessionId, samUser, 's2'));
    // Someone of the session the server does not vouch for (not in its live roster): refused.
    const unknown = peer().incoming(peerIdFor(sessionId, strangerUser, 'u1'), 'Pat');
    await settle();
    expect(pat.answered?.getTracks()).toEqual(media.got);
    expect(pat.senders.every((sender) => sender.replaceTrack.mock.calls.length === 0)).toBe(true);
    expect(call.state.remotes.map((remote) => remote.name)).toEqual(['Pat', 'Sam', 'Sam']);
    expect(unknown.closed).toBe(true);
    expect(unknown.answered).toBeUndefined();

    const patCamera = fakeStream([fakeTrack('video', 'pat camera')]);
    pat.emit('stream', patCamera);
    expect(call.state.remotes[0]?.stream).toBe(patCamera);

    // Pat's page called again (it lost the call): the new call replaces the old one.
    const patAgain = peer().incoming(patPeer, 'Pat');
    await settle();
    expect(pat.closed).toBe(true);
    expect(call.state.remotes.map((remote) => remote.key)).toEqual([
      sam.connectionId,
      nameless.connectionId,
      patAgain.connectionId,
    ]);

    // Someone of another session (signal relays within a session only; this is a second line).
    const stranger = peer().incoming(peerIdFor(otherSession, samUser, 'x1'), 'Mallory');
    await settle();
    expect(stranger.closed).toBe(true);
    expect(stranger.answered).toBeUndefined();

    // Sam left (the call closes from their side).
    sam.close();
    nameless.emit('error', { type: 'connection-closed', message: 'closed' });
    expect(call.state.remotes.map((remote) => remote.name)).toEqual(['Pat']);
  });

  it('without devices answers receiving only, and a retry sends the devices found on the calls under way', async () => {
    const { call, peer, media, onMediaProblem } = setUp('owner', { audio: false, video: false });
    await call.start();
    expect(onMediaProblem).toHaveBeenCalledWith('missing', ['audio', 'video']);
    peer().opened();
    const pat = peer().incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
    await settle();
    expect(pat.answered?.getTracks()).toEqual([media.standIns.audio, media.standIns.video]);
    expect(pat.senders.map((sender) => sender.track)).toEqual([null, null]);

    media.devices.audio = true;
    media.devices.video = true;
    await call.retryMedia();
    expect(call.state.local).toMatchObject({
      hasAudio: true,
      hasVideo: true,
      problem: null,
      acquiring: false,
    });
    expect(pat.senders.map((sender) => sender.track)).toEqual(media.got);
    expect(onMediaProblem).toHaveBeenCalledTimes(1);
  });

  it('a lost registration is renewed, reconnected and announced again', async () => {
    vi.useFakeTimers();
    const { call, live, peer, beforeRegister } = setUp('owner');
    await call.start();
    peer().opened();
    const pat = peer().incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
    await settle();

    peer().fail('network');
    expect(call.state.problem).toEqual({ kind: 'network', text: PEER_ERROR_TEXTS.network });
    peer().lost();
    expect(call.state.signalling).toBe('reconnecting');
    // Calls under way go on without the call server.
    expect(pat.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(CALL_TIMINGS.retryMs);
    expect(beforeRegister).toHaveBeenCalledTimes(2);
    expect(peer().reconnect).toHaveBeenCalledTimes(1);
    peer().opened();
    expect(call.state).toMatchObject({ signalling: 'open', problem: null });
    expect(live.asks('joinVideoChat')).toHaveLength(2);
    call.close();
  });

  it('a peer destroyed before registering is replaced under a new id; a fatal error is final', async () => {
    vi.useFakeTimers();
    const retried = setUp('owner');
    await retried.call.start();
    retried.peer().fail('unavailable-id');
    retried.peer().destroy();
    await vi.advanceTimersByTimeAsync(CALL_TIMINGS.retryMs);
    expect(retried.peers.map((peer) => peer.id)).toEqual([
      peerIdFor(sessionId, researcherUser, 'tab1'),
      peerIdFor(sessionId, researcherUser, 'tab2'),
    ]);
    retried.peer().opened();
    expect(retried.live.asks('joinVideoChat')).toEqual([{ userId: retried.peer().id, sessionId }]);
    retried.call.close();

    const fatal = setUp('owner');
    await fatal.call.start();
    fatal.peer().fail('browser-incompatible');
    fatal.peer().destroy();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fatal.peers).toHaveLength(1);
    expect(fatal.call.state.signalling).toBe('failed');
    expect(fatal.call.state.problem?.text).toBe(PEER_ERROR_TEXTS['browser-incompatible']);
  });

  it('says so when the relay refused its own page, not when a participant’s call fails', async () => {
    const { call, peer } = setUp('owner');
    await call.start();
    peer().opened();
    const pat = peer().incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
    await settle();
    pat.emit('error', { type: 'negotiation-failed', message: 'Negotiation failed.' });
    expect(call.state).toMatchObject({ remotes: [], problem: null, link: null });
    const sam = peer().incoming(peerIdFor(sessionId, samUser, 's1'), 'Sam');
    await settle();
    sam.peerConnection!.turnError(401);
    sam.peerConnection!.gather([]);
    expect(sam.closed).toBe(true);
    expect(call.state.problem).toEqual({ kind: 'relay', text: CALL_TEXTS.relayRefused });
    call.close();
  });

  it('retries the call settings until they come', async () => {
    vi.useFakeTimers();
    const settingsAnswer = vi
      .fn<() => Promise<CallSettings>>()
      .mockRejectedValueOnce(new Error('503'))
      .mockResolvedValue(settings);
    const { call, peers } = setUp('owner', undefined, { settings: settingsAnswer });
    await call.start();
    expect(peers).toHaveLength(0);
    expect(call.state.problem?.kind).toBe('settings');
    await vi.advanceTimersByTimeAsync(CALL_TIMINGS.retryMs);
    expect(peers).toHaveLength(1);
    call.close();
  });
});

// ---- Ending -----------------------------------------------------------------------------------

describe('LiveCall, ending', () => {
  it('closing hangs up, leaves the call server, stops the devices and stand-ins, and stops listening', async () => {
    const { call, live, peer, media } = setUp('owner');
    await call.start();
    peer().opened();
    const pat = peer().incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
    await settle();
    call.close();
    expect(pat.closed).toBe(true);
    expect(peer().destroyed).toBe(true);
    expect(media.got.every((track) => stopCalls(track) === 1)).toBe(true);
    expect(media.release).toHaveBeenCalled();
    expect(live.listening()).toBe(0);
    expect(call.state).toMatchObject({ signalling: 'closed', remotes: [], local: { stream: null } });
  });

  it('closed while the devices were being asked for: they are stopped when they come, and nothing registers', async () => {
    const { call, peers, media } = setUp('participant');
    const starting = call.start();
    call.close();
    await starting;
    await settle();
    expect(peers).toHaveLength(0);
    expect(media.got.length).toBeGreaterThan(0);
    expect(media.got.every((track) => stopCalls(track) === 1)).toBe(true);
  });

  it("the participant's access ending ends the call, with the server's words", async () => {
    const { call, live, peer } = setUp('participant');
    await call.start();
    peer().opened();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const dialed = peer().calls[0]!;
    live.setState({ status: 'ended', accessEnded: 'The researcher removed you from this session.' });
    expect(dialed.closed).toBe(true);
    expect(peer().destroyed).toBe(true);
    expect(call.state.ended).toBe('The researcher removed you from this session.');
  });
});

describe('LiveCall texts and settings', () => {
  it('has a sentence for every PeerJS error kind of the spec', () => {
    for (const kind of PEER_ERROR_TYPES) {
      expect(PEER_ERROR_TEXTS[kind], kind).toMatch(/^[A-Z].{20,}[.…]$/);
    }
  });

  it('reaches the call server on the page’s own origin, TLS on https', () => {
    expect(
      peerOptionsFor(settings, { hostname: 'uis.example.org', port: '', protocol: 'https:' }),
    ).toMatchObject({
      host: 'uis.example.org',
      port: 443,
      secure: true,
      path: '/stream',
      pingInterval: 5000,
    });
  });
});
