import { peerIdFor } from '@uis/proto/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionId, patUser, researcherId, stopCalls, setUp, settle } from './testing/call-fakes';

afterEach(() => {
  vi.useRealTimers();
});

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
