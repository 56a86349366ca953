import { SESSION_ACCESS_TEXTS } from '@uis/kit';
import { SERVICE_TOKEN_HEADER, internalRoutes, type SessionLifecycleChange } from '@uis/proto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/**
 * A session's life as studies keeps it: not started, live (realtime starts it when the researcher
 * opens the live page, or the editor opens it), ended (closed: its join link and enterSession
 * refuse everyone) and reopened. Who hears of each change: realtime tells its own sockets of the
 * changes it makes; signal hears of every one.
 */
describe('session lifecycle', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let groupId: string;
  const cy = { email: 'cy@uni.test' };

  beforeAll(async () => {
    h = await startStudies('session_lifecycle');
    ada = h.person('researcher', { email: 'ada@lab.test' });
    groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  });
  afterAll(() => h.close());
  beforeEach(() => [h.realtime, h.signal].forEach((standIn) => standIn.reset()));

  const newSession = async () =>
    (await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200)).body.res.session
      .session_id as string;
  const edit = (sessionId: string, body: Record<string, unknown>, user = ada) =>
    h
      .http()
      .post('/editSessionInfo')
      .set(user.headers)
      .send({ sessionId, ...body });
  const change = (sessionId: string, to: SessionLifecycleChange) =>
    h
      .http()
      .post(internalRoutes.studiesSessionLifecycle.path)
      .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
      .send({ sessionId, change: to });
  const stateOf = async (sessionId: string, user: TestPerson = ada) =>
    (await h.http().get('/getSessionInfo').query({ sessionId }).set(user.headers).expect(200)).body.res
      .sessionInfo.state as string;
  const notices = () => ({
    realtime: h.realtime.callsTo(internalRoutes.realtimeSessionAccessChanged).length,
    signal: h.signal.callsTo(internalRoutes.signalSessionAccessChanged).length,
  });

  it('starts once, ends, and reopens only what ended, telling signal of every change', async () => {
    const sessionId = await newSession();
    expect(await stateOf(sessionId)).toBe('not_started');
    expect((await change(sessionId, 'reopen').expect(200)).body.res).toEqual({
      state: 'not_started',
      changed: false,
      completionUrl: null,
    });
    expect((await change(sessionId, 'start').expect(200)).body.res).toMatchObject({
      state: 'live',
      changed: true,
    });
    expect((await change(sessionId, 'start').expect(200)).body.res).toMatchObject({
      state: 'live',
      changed: false,
    });
    expect(notices()).toEqual({ realtime: 0, signal: 1 });

    await edit(sessionId, { completionUrl: 'https://survey.example.org/done' }).expect(200);
    expect((await change(sessionId, 'end').expect(200)).body.res).toEqual({
      state: 'ended',
      changed: true,
      completionUrl: 'https://survey.example.org/done',
    });
    expect(await stateOf(sessionId)).toBe('ended');
    expect((await change(sessionId, 'start').expect(200)).body.res).toMatchObject({
      state: 'ended',
      changed: false,
    });
    expect((await change(sessionId, 'reopen').expect(200)).body.res).toMatchObject({
      state: 'live',
      changed: true,
    });
    expect(notices()).toEqual({ realtime: 0, signal: 3 });
    expect((await change(fakeId(), 'end')).status).toBe(404);
    // Without the service token: nothing.
    await h
      .http()
      .post(internalRoutes.studiesSessionLifecycle.path)
      .send({ sessionId, change: 'end' })
      .expect(403);
    expect(await stateOf(sessionId)).toBe('live');
  });

  it('opens from the editor (telling realtime), but leaves reopening an ended session to the live page', async () => {
    const sessionId = await newSession();
    await edit(sessionId, { state: 'live' }).expect(200);
    expect(await stateOf(sessionId)).toBe('live');
    expect(notices()).toEqual({ realtime: 1, signal: 1 });
    // Again: nothing to open, nothing told.
    await edit(sessionId, { state: 'live' }).expect(200);
    expect(notices()).toEqual({ realtime: 1, signal: 1 });

    await change(sessionId, 'end').expect(200);
    const refused = await edit(sessionId, { state: 'live', title: 'Renamed' }).expect(409);
    expect(refused.body.res.message).toMatch(/live page/);
    expect(await stateOf(sessionId)).toBe('ended');
    // Another researcher cannot open it, and a state other than live is a 400.
    await edit(sessionId, { state: 'live' }, h.person('researcher', { email: 'bo@lab.test' })).expect(403);
    await edit(sessionId, { state: 'ended' }).expect(400);
  });

  it('closes the join link and enterSession of an ended session to everyone, until it is reopened', async () => {
    const sessionId = await newSession();
    const { token } = (
      await h.http().post('/createJoinLink').set(ada.headers).send({ sessionId }).expect(200)
    ).body.res.joinLink as { token: string };
    const early = h.person('participant', { email: 'early@uni.test' });
    await h.http().post('/joinSession').set(early.headers).send({ token }).expect(200);
    await change(sessionId, 'end').expect(200);

    const late = h.person('participant', cy);
    const refused = await h.http().post('/joinSession').set(late.headers).send({ token }).expect(409);
    expect(refused.body.res).toEqual({ message: SESSION_ACCESS_TEXTS.ended, code: 'SESSION_ENDED' });
    const entered = await h.http().post('/enterSession').set(early.headers).send({ sessionId }).expect(409);
    expect(entered.body.res.code).toBe('SESSION_ENDED');
    // The participant still reads what the session was, and that it ended (the page says so).
    expect(await stateOf(sessionId, early)).toBe('ended');

    await change(sessionId, 'reopen').expect(200);
    await h.http().post('/joinSession').set(late.headers).send({ token }).expect(200);
    await h.http().post('/enterSession').set(early.headers).send({ sessionId }).expect(200);
  });
});
