import { SERVICE_TOKEN_HEADER, SessionSettings, internalRoutes } from '@uis/proto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/** `GET /internal/studies/session-settings`: what records' exports write of a session (sessions.csv). */
describe('internal session settings', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  beforeAll(async () => {
    h = await startStudies('session_settings');
    ada = h.person('researcher', { email: 'ada@lab.test' });
  });
  afterAll(() => h.close());

  const ask = (sessionId: string, token: string | null = h.env.SERVICE_TOKEN!) => {
    const call = h.http().get(internalRoutes.studiesSessionSettings.path).query({ sessionId });
    return token === null ? call : call.set(SERVICE_TOKEN_HEADER, token);
  };

  it('answers the settings as they are now, with the group’s title and the scope’s kind and size only', async () => {
    const group = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group;
    await h
      .http()
      .post('/editGroup')
      .set(ada.headers)
      .send({ groupId: group.group_id, title: 'Study 1' })
      .expect(200);
    const sessionId = (
      await h.http().post('/createSession').set(ada.headers).send({ groupId: group.group_id }).expect(200)
    ).body.res.session.session_id as string;
    const everyone = SessionSettings.parse((await ask(sessionId).expect(200)).body.res.session);
    expect(everyone).toEqual({
      sessionId,
      groupId: group.group_id,
      groupTitle: 'Study 1',
      title: expect.any(String),
      type: expect.any(String),
      source: '',
      track: '',
      // A new session is open to everyone.
      scopeKind: 'everyone',
      scopeSize: null,
      completionUrl: null,
      createdAt: expect.any(String),
    });

    await h
      .http()
      .post('/editSessionInfo')
      .set(ada.headers)
      .send({
        sessionId,
        title: 'Arm B',
        track: 'b',
        scope: JSON.stringify(['pat@uni.test', 'sam@uni.test']),
        completionUrl: 'https://panel.test/done',
      })
      .expect(200);
    const body = (await ask(sessionId).expect(200)).body.res;
    expect(body.session).toMatchObject({
      title: 'Arm B',
      track: 'b',
      scopeKind: 'list',
      scopeSize: 2,
      completionUrl: 'https://panel.test/done',
    });
    expect(JSON.stringify(body)).not.toContain('pat@uni.test');
  });

  it('answers null for an unknown session, and only to a caller with the service token', async () => {
    expect((await ask(fakeId()).expect(200)).body.res).toEqual({ session: null });
    await ask(fakeId(), null).expect(403);
    await ask(fakeId(), 'wrong').expect(403);
  });
});
