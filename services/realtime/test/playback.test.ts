import { waitFor } from '@uis/kit/testing';
import { randomUUID } from 'node:crypto';
import { SESSION_ACCESS_TEXTS } from '@uis/kit';
import { useTwoReplicas } from './support/two-replicas';

/**
 * What the live session's playback sync stands on: the server's clock for every browser, statuses
 * stamped with the server time they held at, and prompts that fire once per session run whatever
 * the number of researcher tabs or replicas.
 */
describe('playback sync on two replicas', () => {
  const live = useTwoReplicas('playback');
  const { connect } = live;

  it("answers the clock, and every client's estimate of it is within its round trip", async () => {
    const client = await connect(live.a, live.pat);
    const before = Date.now();
    const answer = await client.ask('clock', {});
    expect(answer.status).toBe('SUCCESS');
    if (answer.status !== 'SUCCESS') return;
    expect(answer.res.serverTime).toBeGreaterThanOrEqual(before);
    expect(answer.res.serverTime).toBeLessThanOrEqual(Date.now());
    // The client synced by itself on connecting; here the server's clock is this process's.
    await waitFor(() => client.clock.synced, 'the clock sync');
    expect(Math.abs(client.clock.now() - Date.now())).toBeLessThanOrEqual(client.clock.roundTripMs! / 2 + 2);
  });

  it("relays the researcher's status with its rate and the server time it held at, keeping a plausible `at`", async () => {
    const sessionId = await live.stack.session({ owner: live.researcher, scope: [live.pat] });
    const [owner, participant] = await Promise.all([
      connect(live.a, live.researcher),
      connect(live.b, live.pat),
    ]);
    const accepted = { status: 'SUCCESS' };
    expect(await owner.join(sessionId)).toMatchObject(accepted);
    expect(await participant.join(sessionId)).toMatchObject(accepted);

    const at = Date.now() - 120; // the researcher's estimate of when its player was there
    expect(
      await owner.ask('videoStatus', { sessionId, paused: false, currentTime: 7, playbackRate: 1.5, at }),
    ).toMatchObject(accepted);
    await waitFor(() => participant.last('videoStatus') !== null, 'the status on B');
    expect(participant.last('videoStatus')).toEqual({
      sessionId,
      paused: false,
      currentTime: 7,
      playbackRate: 1.5,
      at,
    });

    // A client clock far off (or a forged one) does not move the time line: the server's time is used.
    const sent = Date.now();
    expect(
      await owner.ask('videoStatus', { sessionId, paused: true, currentTime: 9, at: sent - 3_600_000 }),
    ).toMatchObject(accepted);
    await waitFor(() => participant.last('videoStatus')?.currentTime === 9, 'the second status');
    expect(participant.last('videoStatus')!.at).toBeGreaterThanOrEqual(sent);

    // A late joiner's status has moved on at the rate since it was stored, stamped now.
    const storedAt = Date.now();
    expect(
      await owner.ask('videoStatus', {
        sessionId,
        paused: false,
        currentTime: 20,
        playbackRate: 2,
        at: storedAt,
      }),
    ).toMatchObject(accepted);
    // Every answer is checked: when one is refused, the failure says which and why.
    const late = await connect(live.b, live.pat);
    expect(await late.join(sessionId)).toMatchObject(accepted);
    // Sent before the join's answer, on the same connection: it is here when the answer is.
    const joined = late.last('videoStatus')!;
    expect(joined).not.toBeNull();
    expect(joined.playbackRate).toBe(2);
    expect(joined.at).toBeGreaterThan(storedAt);
    expect(joined.currentTime).toBeCloseTo(20 + ((joined.at - storedAt) / 1000) * 2, 6);
  });

  it("logs the researcher's play, seek, rate, pause and prompt firings, and times every message by the video", async () => {
    const sessionId = await live.stack.session({ owner: live.researcher, scope: [live.pat] });
    const [owner, participant] = await Promise.all([
      connect(live.a, live.researcher),
      connect(live.b, live.pat),
    ]);
    const accepted = { status: 'SUCCESS' };
    expect(await owner.join(sessionId)).toMatchObject(accepted);
    expect(await participant.join(sessionId)).toMatchObject(accepted);
    const status = (change: { paused: boolean; currentTime: number; playbackRate?: number }) =>
      owner.ask('videoStatus', { sessionId, at: Date.now(), ...change });
    const say = async (message: string, actionId?: string) => {
      const answer = await participant.ask('message', { sessionId, message, actionId });
      if (answer.status !== 'SUCCESS') throw new Error(answer.res.message);
      return answer.res;
    };

    // Nothing played yet: no video time.
    expect(await say('hello')).toMatchObject({ videoTime: null, actionId: null });
    // A paused player that has not played has done nothing.
    expect(await status({ paused: true, currentTime: 10 })).toMatchObject(accepted);
    expect(await status({ paused: false, currentTime: 10 })).toMatchObject(accepted);
    const sent = Date.now();
    const actionId = randomUUID();
    const reaction = await say('Pat reacted with Like', actionId);
    // Where the researcher's player is by the room's status: 10 s plus the time since it played.
    expect(reaction.actionId).toBe(actionId);
    expect(reaction.videoTime).toBeGreaterThanOrEqual(10);
    expect(reaction.videoTime).toBeLessThanOrEqual(10 + (Date.now() - sent + 1000) / 1000);

    expect(await status({ paused: false, currentTime: 60 })).toMatchObject(accepted);
    const rateAt = Date.now();
    expect(await status({ paused: false, currentTime: 60.2, playbackRate: 2 })).toMatchObject(accepted);
    const promptId = randomUUID();
    expect(await owner.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: true },
    });
    expect(await owner.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: false },
    });
    // The web client says the prompt's own second: logged exactly there.
    const atItsSecond = randomUUID();
    expect(await owner.ask('firePrompt', { sessionId, promptId: atItsSecond, videoTime: 61 })).toEqual({
      status: 'SUCCESS',
      res: { fire: true },
    });
    // Paused where it had played to: a pause, no seek.
    const pausedAt = 60.2 + ((Date.now() - rateAt) / 1000) * 2;
    expect(await status({ paused: true, currentTime: pausedAt, playbackRate: 2 })).toMatchObject(accepted);
    // The same status again (an answer to a sync request) is no event.
    expect(await status({ paused: true, currentTime: pausedAt, playbackRate: 2 })).toMatchObject(accepted);
    // A participant's status is refused, and logs nothing.
    expect(await participant.ask('videoStatus', { sessionId, paused: false, currentTime: 1 })).toMatchObject({
      status: 'ERROR',
    });

    const log = await live.stack.playbackLog(live.researcher, sessionId);
    expect(
      log.map(({ event, videoTime, playbackRate, promptId: id }) => ({ event, videoTime, playbackRate, id })),
    ).toEqual([
      { event: 'play', videoTime: 10, playbackRate: 1, id: null },
      { event: 'seek', videoTime: 60, playbackRate: 1, id: null },
      { event: 'rate', videoTime: 60.2, playbackRate: 2, id: null },
      { event: 'prompt', videoTime: expect.any(Number), playbackRate: 2, id: promptId },
      { event: 'prompt', videoTime: 61, playbackRate: 2, id: atItsSecond },
      { event: 'pause', videoTime: pausedAt, playbackRate: 2, id: null },
    ]);
    expect(log[3]!.videoTime).toBeGreaterThanOrEqual(60.2);
    expect(log.every((entry) => entry.name === live.researcher.user.name)).toBe(true);
    const stored = await live.stack.storedMessages(sessionId);
    expect(stored.map(({ message, actionId: id }) => ({ message, id }))).toEqual([
      { message: 'hello', id: null },
      { message: 'Pat reacted with Like', id: actionId },
    ]);
    expect(stored[1]!.videoTime).toBe(reaction.videoTime);
  });

  it('fires a prompt once per run, whichever researcher tab on whichever replica asks first', async () => {
    const sessionId = await live.stack.session({ owner: live.researcher, scope: [live.pat] });
    const promptId = randomUUID();
    const [tabA, tabB, participant] = await Promise.all([
      connect(live.a, live.researcher),
      connect(live.b, live.researcher),
      connect(live.b, live.pat),
    ]);
    for (const client of [tabA, tabB, participant]) await client.join(sessionId);
    const answers = await Promise.all([
      tabA.ask('firePrompt', { sessionId, promptId }),
      tabB.ask('firePrompt', { sessionId, promptId }),
    ]);
    expect(answers.map((answer) => answer.status === 'SUCCESS' && answer.res.fire).sort()).toEqual([
      false,
      true,
    ]);
    // After a reload (a new connection) it still does not fire again; another prompt does.
    const reloaded = await connect(live.a, live.researcher);
    await reloaded.join(sessionId);
    expect(await reloaded.ask('firePrompt', { sessionId, promptId })).toEqual({
      status: 'SUCCESS',
      res: { fire: false },
    });
    expect(await reloaded.ask('firePrompt', { sessionId, promptId: randomUUID() })).toEqual({
      status: 'SUCCESS',
      res: { fire: true },
    });
    // Only the researcher's player fires prompts.
    expect(await participant.ask('firePrompt', { sessionId, promptId: randomUUID() })).toEqual({
      status: 'ERROR',
      res: { message: SESSION_ACCESS_TEXTS.ownerOnly, code: 'FORBIDDEN' },
    });
  });
});
