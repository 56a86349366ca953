import { SESSION_ACCESS_TEXTS } from '@uis/kit';
import { waitFor } from '@uis/kit/testing';
import { randomUUID } from 'node:crypto';
import { pause } from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';
import { useTwoReplicas } from './support/two-replicas';

/**
 * The researcher ends the session. Two replicas on one Redis, the researcher on A and the
 * participants on B: both hear sessionEnded with the session's completion URL, the session is
 * closed (no joins, no messages) until the researcher reopens it, and the room state (prompts
 * fired, clicks, status, peer id) is gone, so the reopened session starts clean.
 */
describe('ending a live session', () => {
  const live = useTwoReplicas('end_session');
  const { connect, liveSession } = live;
  const completionUrl = 'https://survey.example.org/thanks?study=7';
  /** Through the API, as the editor sets it. */
  const setCompletionUrl = async (sessionId: string, url: string | null) => {
    const res = await fetch(`${live.stack.url}/editSessionInfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${live.researcher.token}` },
      body: JSON.stringify({ sessionId, completionUrl: url }),
    });
    expect(res.status).toBe(200);
  };

  it("tells every participant on both replicas, with the URL, and resets the room's state", async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    await setCompletionUrl(sessionId, completionUrl);
    const promptId = randomUUID();
    expect(await owner.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: true },
    });
    await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
    await owner.ask('videoStatus', { sessionId, paused: false, currentTime: 12 });
    await owner.ask('joinVideoChat', { sessionId, userId: 'researcher-peer' });
    await waitFor(() => p1.state.allowClicks && p2.state.allowClicks, 'clicks on at B');

    expect(await owner.endSession()).toEqual({ status: 'SUCCESS', res: { completionUrl } });
    for (const client of [p1, p2]) {
      await waitFor(() => client.state.ended !== null, 'sessionEnded at B');
      expect(client.payloadsOf('sessionEnded')).toEqual([{ sessionId, completionUrl }]);
      expect(client.state).toMatchObject({ status: 'ended', ended: { completionUrl }, problem: null });
    }
    // The sender hears it in its acknowledgement, and its own connection ends as the others' do.
    expect(owner.state).toMatchObject({ status: 'ended', ended: { completionUrl } });
    expect(owner.payloadsOf('sessionEnded')).toEqual([]);
    // Ended means ended: no reconnect follows.
    await pause(700);
    for (const client of [owner, p1, p2]) expect(client.socket.connected).toBe(false);

    // Closed: nobody joins, on either replica, until the researcher reopens it.
    const [owner2, p3] = await Promise.all([connect(live.b, live.researcher), connect(live.a, live.pat)]);
    const ended = { status: 'ERROR', res: { message: SESSION_ACCESS_TEXTS.ended, code: 'SESSION_ENDED' } };
    expect(await owner2.join(sessionId)).toEqual(ended);
    expect(await p3.join(sessionId)).toEqual(ended);
    expect(await p3.ask('message', { sessionId, message: 'after the end' })).toEqual(ended);
    expect(p3.state.sessionState).toBe('ended');
    // Closed, not a failure to fetch the chat: the page says it ended, not 'Error fetching chat messages'.
    expect(p3.state.listFailed).toBe(false);

    // Reopened, it starts clean, on either replica.
    expect(await owner2.reopen()).toEqual({ status: 'SUCCESS', res: null });
    // The playback log has the end and the reopening, in order after the player's entries.
    const log = await fetch(`${live.stack.url}/getPlayback?sessionId=${sessionId}`, {
      headers: { authorization: `Bearer ${live.researcher.token}` },
    });
    const entries = ((await log.json()) as { res: { playback: { event: string; videoTime: number }[] } }).res
      .playback;
    expect(entries.map((entry) => entry.event)).toEqual(['prompt', 'play', 'end', 'reopen']);
    expect(entries[2]!.videoTime).toBeGreaterThanOrEqual(12);
    expect((await p3.join(sessionId)).status).toBe('SUCCESS');
    await waitFor(() => p3.state.sessionState === 'live', 'live again');
    expect(await owner2.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: true },
    });
    expect(p3.state.allowClicks).toBe(false);
    expect(p3.payloadsOf('videoStatus')).toEqual([]);
    expect(await p3.ask('clickVideo', { sessionId, x: 0.5, y: 0.5, color: 'rgb(1, 2, 3)' })).toEqual({
      status: 'ERROR',
      res: { message: REALTIME_TEXTS.clicksOff, code: 'FORBIDDEN' },
    });
    // No researcher's peer id is kept: a participant asking makes the researcher announce it again.
    await p3.ask('syncVideoChat', { sessionId });
    await waitFor(() => owner2.payloadsOf('syncVideoChat').length === 1, 'the researcher asked for its id');
    expect(p3.payloadsOf('joinVideoChat')).toEqual([]);
  });

  it('sends a null URL when the session has none', async () => {
    const { sessionId, owner, p1 } = await liveSession();
    expect(await owner.endSession()).toEqual({ status: 'SUCCESS', res: { completionUrl: null } });
    await waitFor(() => p1.state.ended !== null, 'sessionEnded');
    expect(p1.payloadsOf('sessionEnded')).toEqual([{ sessionId, completionUrl: null }]);
  });

  it("refuses a participant's endSession, and nothing changes", async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    await setCompletionUrl(sessionId, completionUrl);
    const promptId = randomUUID();
    await owner.ask('firePrompt', { sessionId, promptId });
    await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
    await waitFor(() => p1.state.allowClicks, 'clicks on');

    expect(await p1.endSession()).toEqual({
      status: 'ERROR',
      res: { message: REALTIME_TEXTS.ownerOnly, code: 'FORBIDDEN' },
    });
    await pause(300);
    for (const client of [owner, p1, p2]) {
      expect(client.payloadsOf('sessionEnded')).toEqual([]);
      expect(client.state).toMatchObject({ status: 'connected', ended: null });
    }
    expect(await owner.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: false },
    });
    expect((await p2.ask('clickVideo', { sessionId, x: 0.2, y: 0.2, color: 'rgb(1, 2, 3)' })).status).toBe(
      'SUCCESS',
    );
  });
});
