import type { CallSettings } from '@uis/proto';
import { peerIdFor } from '@uis/proto/browser';
import { CALL_TEXTS, PEER_ERROR_TEXTS } from '../i18n/en/call';
import { CALL_TIMINGS } from './call-timings';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  sessionId,
  otherSession,
  researcherUser,
  patUser,
  samUser,
  strangerUser,
  settings,
  fakeTrack,
  fakeStream,
  setUp,
  settle,
} from './testing/call-fakes';

afterEach(() => {
  vi.useRealTimers();
});

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
