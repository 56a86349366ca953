import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { peerIdFor } from '@uis/proto/browser';
import Cookies from 'js-cookie';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { RequireUser } from '../../../signed-in/route-guards';
import { fakeApi, ok } from '../../../testing/fake-api';
import { fakeLiveConnection } from '../../../testing/fake-live-connection';
import { renderScreen } from '../../../testing/render';
import { CallArea } from './call-area';
import { CALL_STATUS_TEXTS, LIVE_CONTROL_TEXTS, participantsInCallText } from '../../../i18n/en/live-session';

/**
 * The call area against the edges of the browser: PeerJS (a fake Peer), the camera and microphone
 * (a fake getUserMedia), the API (`fetch`) and the live connection (a fake of its events). The
 * real LiveCall, client, auth and toasts run between them.
 */

const sessionId = '00000000-0000-4000-8000-0000000000aa';
const researcherUser = '00000000-0000-4000-8000-000000000001';
const patUser = '00000000-0000-4000-8000-000000000002';
const samUser = '00000000-0000-4000-8000-000000000003';
const researcherId = peerIdFor(sessionId, researcherUser, 'r1');

type Listener = (...args: unknown[]) => void;

const peerjs = vi.hoisted(() => {
  class Emitter {
    private readonly handlers = new Map<string, Set<Listener>>();
    on(event: string, handler: Listener) {
      const set = this.handlers.get(event) ?? new Set<Listener>();
      set.add(handler);
      this.handlers.set(event, set);
      return this;
    }
    emit(event: string, ...args: unknown[]) {
      for (const handler of this.handlers.get(event) ?? []) handler(...args);
    }
  }
  let count = 0;
  class FakeConnection extends Emitter {
    closed = false;
    answered: MediaStream | undefined;
    readonly connectionId = `mc_${++count}`;
    readonly peerConnection = {
      getSenders: () => [],
      getTransceivers: () => [],
      addEventListener: () => undefined,
    };
    constructor(
      readonly peer: string,
      readonly metadata: unknown,
      readonly sent?: MediaStream,
    ) {
      super();
    }
    answer(stream?: MediaStream) {
      this.answered = stream;
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      this.emit('close');
    }
  }
  const peers: FakePeer[] = [];
  class FakePeer extends Emitter {
    open = false;
    disconnected = false;
    destroyed = false;
    readonly calls: FakeConnection[] = [];
    constructor(
      readonly id: string,
      readonly options: unknown,
    ) {
      super();
      peers.push(this);
    }
    call(peer: string, stream: MediaStream, { metadata }: { metadata: unknown }) {
      const connection = new FakeConnection(peer, metadata, stream);
      this.calls.push(connection);
      return connection;
    }
    reconnect() {}
    destroy() {
      this.destroyed = true;
      for (const connection of this.calls) connection.close();
      this.emit('close');
    }
    opened() {
      this.open = true;
      this.emit('open', this.id);
    }
    incoming(from: string, name: string) {
      const connection = new FakeConnection(from, { name });
      this.emit('call', connection);
      return connection;
    }
  }
  return { Peer: FakePeer, peers, FakeConnection };
});

vi.mock('peerjs', () => ({ Peer: peerjs.Peer }));

const livePeers = () => peerjs.peers.filter((peer) => !peer.destroyed);
const livePeer = () => {
  const peer = livePeers().at(-1);
  if (!peer) throw new Error('no live peer');
  return peer;
};

// ---- The browser's media ----------------------------------------------------------------------

class FakeStream {
  constructor(private readonly tracks: MediaStreamTrack[] = []) {}
  getTracks = () => this.tracks;
  getAudioTracks = () => this.tracks.filter((track) => track.kind === 'audio');
  getVideoTracks = () => this.tracks.filter((track) => track.kind === 'video');
}

const track = (kind: 'audio' | 'video') =>
  ({ kind, enabled: true, stop: vi.fn() }) as unknown as MediaStreamTrack;
/** How often a fake track was stopped. */
const stopCalls = (sent: MediaStreamTrack) => (sent as unknown as { stop: Mock }).stop.mock.calls.length;
let devices = { audio: true, video: true };
let granted: MediaStreamTrack[] = [];

function stubMedia() {
  granted = [];
  const getUserMedia = vi.fn((constraints: MediaStreamConstraints) => {
    const wanted = (['audio', 'video'] as const).filter((kind) => constraints[kind]);
    if (wanted.some((kind) => !devices[kind])) {
      return Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
    }
    const tracks = wanted.map(track);
    granted.push(...tracks);
    return Promise.resolve(new FakeStream(tracks));
  });
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  vi.stubGlobal('MediaStream', FakeStream);
  vi.stubGlobal(
    'AudioContext',
    class {
      createMediaStreamDestination = () => ({ stream: new FakeStream([track('audio')]) });
      close = () => Promise.resolve();
    },
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  Object.defineProperty(HTMLCanvasElement.prototype, 'captureStream', {
    value: () => new FakeStream([track('video')]),
    configurable: true,
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  return getUserMedia;
}

// ---- The live connection ----------------------------------------------------------------------

/** The shared fake, its events delivered inside act (they change what the screen shows). */
function fakeConnection() {
  // The server's live roster, which the researcher's page asks who a caller is.
  const roster = [
    { userId: patUser, name: 'Pat', connected: true },
    { userId: samUser, name: 'Sam', connected: true },
  ];
  const fake = fakeLiveConnection({ monitor: () => ({ serverTime: 0, participants: roster }) });
  return {
    ...fake,
    serverSends: (event: string, payload: unknown) => act(() => fake.serverSends(event, payload)),
  };
}

// ---- The API ----------------------------------------------------------------------------------

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;
const users = {
  owner: { id: researcherUser, email: 'ada@example.org', name: 'Ada', type: 'researcher' },
  participant: { id: patUser, email: 'pat@example.org', name: 'Pat', type: 'participant' },
};

function server(role: 'owner' | 'participant') {
  return fakeApi({
    '/getUserFromToken': () => ok({ user: users[role] }),
    '/getCallSettings': () =>
      ok({ iceServers: [], iceTransportPolicy: 'all', expiresAt: null, peerPath: '/stream', key: 'peerjs' }),
  });
}

function renderCall(role: 'owner' | 'participant') {
  const live = fakeConnection();
  render(<Toaster />);
  const view = renderScreen(
    '/live',
    '/live',
    <RequireUser>
      <CallArea sessionId={sessionId} connection={live.connection} role={role} userId={users[role].id} />
    </RequireUser>,
  );
  return { live, view };
}

const statusText = () =>
  within(screen.getByRole('region', { name: 'Video call' })).getByRole('status').textContent;
// Renders scheduled while waitFor polled (outside act) may commit after the peer opens: wait for
// the screen to show the registration rather than reading it in the same tick.
const registered = async () => {
  await waitFor(() => expect(livePeers()).toHaveLength(1));
  act(() => livePeer().opened());
  await waitFor(() => expect(statusText()).not.toMatch(/^(Connecting|Starting)/));
};

describe('CallArea', () => {
  beforeEach(() => {
    devices = { audio: true, video: true };
    peerjs.peers.length = 0;
    Cookies.set('accessToken', jwt(Date.now() / 1000 + 3600));
    Cookies.set('refreshToken', 'refresh');
  });
  afterEach(() => {
    Cookies.remove('accessToken');
    Cookies.remove('refreshToken');
    Reflect.deleteProperty(navigator, 'mediaDevices');
    Reflect.deleteProperty(HTMLCanvasElement.prototype, 'captureStream');
  });

  it('a participant starts muted, calls the researcher when told their id, and sees them', async () => {
    stubMedia();
    const api = server('participant');
    const { live } = renderCall('participant');
    await registered();
    expect(livePeer().id).toMatch(new RegExp(`^${sessionId}_${patUser}_[a-z0-9]{16}$`));
    expect(api.to('/getCallSettings')).toHaveLength(1);
    expect(live.asked).toContainEqual(['syncVideoChat', { sessionId }]);
    expect(statusText()).toBe(CALL_STATUS_TEXTS.waitingForResearcher);

    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const dialed = livePeer().calls[0]!;
    expect(dialed.metadata).toEqual({ name: 'Pat' });
    expect(statusText()).toBe('Calling the researcher…');
    act(() => dialed.emit('stream', new FakeStream([track('video')])));
    expect(screen.getByRole('figure', { name: 'Researcher' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'You' })).toBeTruthy();
    expect(statusText()).toBe(CALL_STATUS_TEXTS.connectingToResearcher);
    act(() => dialed.emit('iceStateChanged', 'connected'));
    expect(statusText()).toBe(CALL_STATUS_TEXTS.inCallWithResearcher);

    // Muted by default; the toggle turns the sent audio track on and off.
    // StrictMode starts (and closes) a first call: the microphone in use is the last one granted.
    const microphone = granted.filter((sent) => sent.kind === 'audio').at(-1)!;
    const mute = screen.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteMicrophone });
    expect(mute.getAttribute('aria-pressed')).toBe('true');
    expect(microphone.enabled).toBe(false);
    fireEvent.click(mute);
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    expect(microphone.enabled).toBe(true);
    fireEvent.click(mute);
    expect(microphone.enabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Retry camera and microphone' })).toBeNull();
  });

  it("a participant without camera or microphone gets 'Failed to get local stream' and still joins, receiving only", async () => {
    stubMedia();
    devices = { audio: false, video: false };
    server('participant');
    const { live } = renderCall('participant');
    expect(await screen.findByText('Failed to get local stream')).toBeTruthy();
    expect(screen.getByText(/No camera or microphone was found/)).toBeTruthy();
    await registered();
    live.serverSends('joinVideoChat', { userId: researcherId, sessionId });
    const dialed = livePeer().calls[0]!;
    expect(dialed.sent?.getTracks().map((sent) => sent.kind)).toEqual(['audio', 'video']);
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: LIVE_CONTROL_TEXTS.muteMicrophone }).disabled,
    ).toBe(true);
    expect(screen.getByRole('button', { name: 'Retry camera and microphone' })).toBeTruthy();
  });

  it('the researcher sees a tile for every participant who joined, with their name, until they leave', async () => {
    stubMedia();
    server('owner');
    const { live } = renderCall('owner');
    await registered();
    expect(live.asked).toContainEqual(['joinVideoChat', { userId: livePeer().id, sessionId }]);
    expect(statusText()).toBe(CALL_STATUS_TEXTS.waitingForParticipants);
    // The researcher's microphone is on (and their own picture is muted: nobody hears themselves).
    expect(
      screen.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteMicrophone }).getAttribute('aria-pressed'),
    ).toBe('false');
    expect(screen.getByRole('figure', { name: 'You' }).querySelector('video')?.muted).toBe(true);

    let pat!: InstanceType<typeof peerjs.FakeConnection>;
    await act(async () => {
      pat = livePeer().incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
      livePeer().incoming(peerIdFor(sessionId, samUser, 's1'), 'Sam');
      await Promise.resolve();
    });
    expect(pat.answered?.getTracks()).toEqual(granted.slice(-2));
    const people = screen.getByRole('list', { name: 'People in the call' });
    expect(
      within(people)
        .getAllByRole('figure')
        .map((figure) => figure.getAttribute('aria-label')),
    ).toEqual(['You', 'Pat', 'Sam']);
    expect(statusText()).toBe(participantsInCallText(2));
    act(() => pat.close());
    expect(screen.queryByRole('figure', { name: 'Pat' })).toBeNull();
    expect(statusText()).toBe(participantsInCallText(1));
  });

  it('the researcher without devices gets the toast and a retry that brings them in', async () => {
    const getUserMedia = stubMedia();
    devices = { audio: false, video: false };
    server('owner');
    renderCall('owner');
    expect(await screen.findByText('Failed to get local stream')).toBeTruthy();
    const retry = await screen.findByRole('button', { name: 'Retry camera and microphone' });
    devices = { audio: true, video: true };
    fireEvent.click(retry);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Retry camera and microphone' })).toBeNull(),
    );
    expect(getUserMedia).toHaveBeenLastCalledWith({ audio: true, video: true });
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: LIVE_CONTROL_TEXTS.muteMicrophone }).disabled,
    ).toBe(false);
  });

  it('shows PeerJS errors as sentences, and closes everything when it goes away', async () => {
    stubMedia();
    server('owner');
    const { view } = renderCall('owner');
    await registered();
    act(() => livePeer().emit('error', { type: 'webrtc', message: 'setRemoteDescription failed' }));
    expect(statusText()).toBe('The browser could not set up the audio and video connection. Trying again…');

    const peer = livePeer();
    let pat!: InstanceType<typeof peerjs.FakeConnection>;
    await act(async () => {
      pat = peer.incoming(peerIdFor(sessionId, patUser, 'p1'), 'Pat');
      await Promise.resolve();
    });
    view.unmount();
    expect(peer.destroyed).toBe(true);
    expect(pat.closed).toBe(true);
    expect(granted.every((sent) => stopCalls(sent) === 1)).toBe(true);
  });
});
