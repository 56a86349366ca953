import type { CallSettings } from '@uis/proto';
import { peerIdFor } from '@uis/proto/browser';
import { CALL_TEXTS } from '../i18n/en/call';
import { CALL_TIMINGS } from './call-timings';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  sessionId,
  otherSession,
  researcherUser,
  patUser,
  researcherId,
  settings,
  turnSettings,
  fakeTrack,
  fakeStream,
  setUp,
} from './testing/call-fakes';

afterEach(() => {
  vi.useRealTimers();
});

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
