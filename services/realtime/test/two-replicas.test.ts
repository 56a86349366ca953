import { waitFor } from '@uis/kit/testing';
import { internalRoutes, type MessageRecord, type PixelRecord } from '@uis/proto';
import { pause } from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';
import { useTwoReplicas } from './support/two-replicas';

/**
 * Two realtime replicas on one Redis, the researcher on A and the participants on B: everything one
 * side does reaches the other through the adapter and the shared room state.
 */
describe('two realtime replicas on one Redis', () => {
  const live = useTwoReplicas('replicas');
  const { connect, liveSession } = live;

  it('carries chat both ways, stored under the sender’s own name before anyone sees it', async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();

    const fromOwner = await owner.ask('message', { sessionId, message: 'Welcome', name: 'ignored' });
    expect(fromOwner).toEqual({
      status: 'SUCCESS',
      res: expect.objectContaining({ message: 'Welcome', name: 'Rhea Researcher' }) as MessageRecord,
    });
    const fromPat = await p1.ask('message', { sessionId, message: 'Hi!', name: 'Somebody Else' });
    expect(fromPat.status).toBe('SUCCESS');

    const stored = await live.stack.storedMessages(sessionId);
    expect(stored.map((m) => [m.name, m.message])).toEqual([
      ['Rhea Researcher', 'Welcome'],
      ['Pat', 'Hi!'],
    ]);
    for (const client of [owner, p1, p2]) {
      await waitFor(() => client.state.messages.length === 2, 'both messages everywhere');
      expect(client.state.messages).toEqual(stored);
    }
    // One messageAdded per message: the history is never sent again for a new message.
    expect(p2.payloadsOf('messageAdded')).toHaveLength(2);
    expect(p2.payloadsOf('message')).toHaveLength(1);
  });

  it('sends the list to a late joiner, and a message without an acknowledgement still arrives', async () => {
    const { sessionId, owner, p1 } = await liveSession();
    owner.socket.emit('message', { sessionId, message: 'No callback here' });
    await waitFor(() => p1.texts().includes('No callback here'), 'the unacknowledged message');

    const late = await connect(live.b, live.pia);
    const list = await late.join(sessionId);
    expect(list.status === 'SUCCESS' && list.res.map((m) => m.message)).toEqual(['No callback here']);
    // The list also comes as the spec's `message` event; it may land just after the acknowledgement
    // (with connection state recovery a socket's own events pass through the adapter).
    await waitFor(() => late.payloadsOf('message').length > 0, 'the list as a message event');
    expect(late.payloadsOf('message')).toEqual([list]);
  });

  it('has participants follow the researcher’s video, and answers their sync from the last status', async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    const sentAt = Date.now();
    expect(await owner.ask('videoStatus', { sessionId, paused: false, currentTime: 10 })).toEqual({
      status: 'SUCCESS',
      res: null,
    });
    for (const client of [p1, p2]) {
      await waitFor(() => client.last('videoStatus') !== null, 'the status on B');
      // Stamped with the server time it held at (the researcher sent no `at`: the server's own).
      expect(client.last('videoStatus')).toEqual({
        sessionId,
        paused: false,
        currentTime: 10,
        playbackRate: 1,
        at: expect.any(Number) as number,
      });
      expect(client.last('videoStatus')!.at).toBeGreaterThanOrEqual(sentAt);
    }
    expect(owner.payloadsOf('videoStatus')).toEqual([]); // the sender is the source

    await pause(300);
    expect((await p1.ask('syncVideoStatus', { sessionId })).status).toBe('SUCCESS');
    await waitFor(() => p1.payloadsOf('videoStatus').length === 2, 'the sync answer');
    // Still playing: the answer has moved on by the time since the researcher sent it.
    const answer = p1.last('videoStatus')!;
    expect(answer.paused).toBe(false);
    expect(answer.currentTime).toBeGreaterThanOrEqual(10.3);
    expect(answer.currentTime).toBeLessThanOrEqual(10 + (Date.now() - sentAt) / 1000);

    await owner.ask('videoStatus', { sessionId, paused: true, currentTime: 42 });
    const late = await connect(live.b, live.pia);
    await late.join(sessionId);
    // A joiner gets the status with the list, no need to ask.
    expect(late.last('videoStatus')).toMatchObject({
      sessionId,
      paused: true,
      currentTime: 42,
      playbackRate: 1,
    });
    await waitFor(() => p2.last('videoStatus')?.currentTime === 42, 'the pause on B');
  });

  it('asks the researcher when no status is known yet, as the spec has it', async () => {
    const { sessionId, owner, p1 } = await liveSession();
    await p1.ask('syncVideoStatus', { sessionId });
    await waitFor(() => owner.payloadsOf('syncVideoStatus').length === 1, 'the question on A');
    expect(owner.payloadsOf('syncVideoStatus')).toEqual([{ sessionId }]);
    await owner.ask('videoStatus', { sessionId, paused: true, currentTime: 3 });
    await waitFor(() => p1.last('videoStatus') !== null, 'the answer on B');
    expect(p1.last('videoStatus')).toMatchObject({ sessionId, paused: true, currentTime: 3 });
  });

  it('lets participants click only while the researcher allows it, storing the video time', async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    // The joining socket is told the permission (off) before its list.
    expect(p1.payloadsOf('participantClicksToggled')).toEqual([{ sessionId, allowClicks: false }]);
    expect(p1.state.allowClicks).toBe(false);
    const click = { sessionId, x: 0.25, y: 0.75, color: 'rgba(10, 20, 30, 255)', videoTime: 12.5 };
    const clicksOff = { status: 'ERROR', res: { message: REALTIME_TEXTS.clicksOff, code: 'FORBIDDEN' } };
    expect(await p1.ask('clickVideo', click)).toEqual(clicksOff);

    await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
    await waitFor(() => p1.state.allowClicks && p2.state.allowClicks, 'the permission on B');
    const stored = await p1.ask('clickVideo', click);
    expect(stored).toEqual({
      status: 'SUCCESS',
      res: expect.objectContaining({ x: 0.25, y: 0.75, videoTime: 12.5, name: 'Pat' }) as PixelRecord,
    });
    expect(await live.stack.storedPixels(sessionId)).toEqual([{ x: 0.25, y: 0.75, video_time: 12.5 }]);

    const late = await connect(live.b, live.pia);
    await late.join(sessionId);
    expect(late.payloadsOf('participantClicksToggled')).toEqual([{ sessionId, allowClicks: true }]);
    expect(late.state.allowClicks).toBe(true);

    await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: false });
    await waitFor(() => !p2.state.allowClicks, 'the withdrawal on B');
    expect(await p2.ask('clickVideo', click)).toEqual(clicksOff);
    expect(await live.stack.storedPixels(sessionId)).toHaveLength(1);
  });

  it('relays peer ids for the chat call: participants learn the researcher’s, even late', async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    const ownerTab = await connect(live.a, live.researcher);
    await ownerTab.join(sessionId);

    await owner.ask('joinVideoChat', { sessionId, userId: 'researcher-peer' });
    for (const client of [p1, p2]) {
      await waitFor(() => client.payloadsOf('joinVideoChat').length === 1, 'the researcher’s peer id on B');
      expect(client.payloadsOf('joinVideoChat')).toEqual([{ sessionId, userId: 'researcher-peer' }]);
    }

    const late = await connect(live.b, live.pia);
    await late.join(sessionId);
    await late.ask('syncVideoChat', { sessionId });
    await waitFor(() => late.payloadsOf('joinVideoChat').length === 1, 'the answer to a late sync');
    expect(late.payloadsOf('joinVideoChat')).toEqual([{ sessionId, userId: 'researcher-peer' }]);

    await p1.ask('joinVideoChat', { sessionId, userId: 'pat-peer' });
    await waitFor(() => owner.payloadsOf('joinVideoChat').length === 1, 'Pat’s peer id on A');
    expect(owner.payloadsOf('joinVideoChat')).toEqual([{ sessionId, userId: 'pat-peer' }]);

    await owner.ask('syncVideoChat', { sessionId });
    await waitFor(
      () => p2.payloadsOf('syncVideoChat').length === 1,
      'the researcher’s call for announcements',
    );
    await pause(100);
    // Peer ids go between the researcher and participants only, never to the wrong side.
    expect(p2.payloadsOf('joinVideoChat')).toEqual([{ sessionId, userId: 'researcher-peer' }]);
    expect(ownerTab.payloadsOf('joinVideoChat')).toEqual([{ sessionId, userId: 'pat-peer' }]);
    expect(ownerTab.payloadsOf('syncVideoChat')).toEqual([]);
  });

  it('handles one sender’s events in the order sent, however fast they come', async () => {
    const { sessionId, owner, p1 } = await liveSession();
    const texts = Array.from({ length: 20 }, (_, i) => `quick ${i}`);
    const statuses = [5, 6, 7, 8].map((currentTime) => ({
      sessionId,
      paused: currentTime % 2 === 0,
      currentTime,
    }));
    await Promise.all([
      ...texts.map((message) => owner.ask('message', { sessionId, message })),
      ...statuses.map((status) => owner.ask('videoStatus', status)),
    ]);
    expect((await live.stack.storedMessages(sessionId)).map((m) => m.message)).toEqual(texts);
    await waitFor(() => p1.payloadsOf('videoStatus').length === 4, 'every status on B');
    expect(p1.payloadsOf('videoStatus').map(({ at: _at, playbackRate: _rate, ...status }) => status)).toEqual(
      statuses,
    );
    await p1.ask('syncVideoStatus', { sessionId });
    await waitFor(() => p1.payloadsOf('videoStatus').length === 5, 'the sync answer');
    expect(p1.last('videoStatus')).toMatchObject(statuses.at(-1)!); // paused at 8
  });

  it('re-announces a rejoining author’s message that a dead replica stored but never broadcast', async () => {
    const { sessionId, p1, p2 } = await liveSession();
    // What a replica leaves behind when it dies between records' answer and the broadcast.
    const {
      messages: [message],
    } = await live.stack.records().call(internalRoutes.recordsAppendMessages, {
      items: [
        {
          sessionId,
          userId: live.pat.user.id,
          email: live.pat.user.email,
          name: live.pat.user.name,
          message: 'Sent just before the crash',
        },
      ],
    });
    await pause(100);
    expect(p2.texts()).toEqual([]);

    // Pat's connection drops; the client reconnects (to B here) and resyncs by itself, as it does
    // after a replica dies.
    p1.socket.io.engine.close();
    await waitFor(() => p1.sent.filter(([event]) => event === 'sync').length === 1, 'Pat’s resync');
    await waitFor(() => p2.texts().length === 1, 'the re-announced message');
    expect(p2.state.messages).toEqual([message]);
    expect(p1.state.messages).toEqual([message]);
  });
});
