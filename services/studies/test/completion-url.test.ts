import { COMPLETION_URL_MAX_CHARS, SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/** A session's completion URL, where participants go when the researcher ends the live session. */
describe('session completion URL', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let bo: TestPerson;
  let sessionId: string;
  const cyEmail = 'cy@uni.test';

  beforeAll(async () => {
    h = await startStudies('completion_url');
    ada = h.person('researcher', { email: 'ada@lab.test' });
    bo = h.person('researcher', { email: 'bo@lab.test' });
    const groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id as string;
    sessionId = (await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200)).body
      .res.session.session_id as string;
    await edit(ada, { scope: [cyEmail] }).expect(200);
  });
  afterAll(() => h.close());

  const edit = (user: TestPerson, body: Record<string, unknown>) =>
    h
      .http()
      .post('/editSessionInfo')
      .set(user.headers)
      .send({ sessionId, ...body });
  const infoOf = async (user: TestPerson) =>
    (await h.http().get('/getSessionInfo').query({ sessionId }).set(user.headers).expect(200)).body.res
      .sessionInfo as { completionUrl: string | null };
  /** What realtime hears with the lifecycle's answer ('start' changes nothing once started). */
  const lifecycle = (id: string) =>
    h
      .http()
      .post(internalRoutes.studiesSessionLifecycle.path)
      .set({ [SERVICE_TOKEN_HEADER]: h.env.SERVICE_TOKEN! })
      .send({ sessionId: id, change: 'start' });
  const internalUrl = async (id: string) => {
    const { completionUrl } = (await lifecycle(id).expect(200)).body.res as { completionUrl: string | null };
    return { completionUrl };
  };

  it('is null at first, is set, answered to the owner, the participants and realtime, and cleared with null', async () => {
    expect((await infoOf(ada)).completionUrl).toBeNull();
    const url = 'https://survey.example.org/done?study=7&ok=1';
    await edit(ada, { completionUrl: ` ${url} ` }).expect(200);
    expect((await infoOf(ada)).completionUrl).toBe(url);
    expect((await infoOf(h.person('participant', { email: cyEmail }))).completionUrl).toBe(url);
    expect(await internalUrl(sessionId)).toEqual({ completionUrl: url });

    await edit(ada, { completionUrl: 'http://localhost:5173/sessions?completed=1' }).expect(200);
    expect((await infoOf(ada)).completionUrl).toBe('http://localhost:5173/sessions?completed=1');

    await edit(ada, { completionUrl: null }).expect(200);
    expect((await infoOf(ada)).completionUrl).toBeNull();
    expect(await internalUrl(sessionId)).toEqual({ completionUrl: null });
    expect((await lifecycle(fakeId())).status).toBe(404);
  });

  it.each([
    ['not a URL', 'survey done'],
    ['a relative path', '/sessions'],
    ['another scheme', 'javascript:alert(1)'],
    ['a file URL', 'file:///etc/passwd'],
    ['empty text', ''],
    ['a number', 42],
    ['too long', `https://example.org/${'a'.repeat(COMPLETION_URL_MAX_CHARS)}`],
    ['a NUL', 'https://example.org/a\u0000b'],
    ['a line break', 'https://example.org/a\r\nSet-Cookie: x=1'],
    ['a bell', 'https://example.org/\u0007'],
    ['a bidirectional override', 'https://example.org/\u202Etxt.exe'],
  ])('refuses %s with a 400 that names the field, and keeps the URL it had', async (_, completionUrl) => {
    await edit(ada, { completionUrl: 'https://example.org/kept' }).expect(200);
    const res = await edit(ada, { completionUrl }).expect(400);
    expect(res.body.res.code).toBe('VALIDATION');
    expect(res.body.res.message).toMatch(/completionUrl/);
    expect(res.body.res.message).toMatch(/https:\/\/|at most 2000 characters|must not contain|one line/);
    expect((await infoOf(ada)).completionUrl).toBe('https://example.org/kept');
  });

  it('is shown to nobody outside the session, and changed by its owner only', async () => {
    await edit(ada, { completionUrl: 'https://example.org/secret-panel' }).expect(200);
    const outsider = h.person('participant', { email: 'dee@uni.test' });
    const refused = await h
      .http()
      .get('/getSessionInfo')
      .query({ sessionId })
      .set(outsider.headers)
      .expect(403);
    expect(JSON.stringify(refused.body)).not.toContain('secret-panel');
    const otherResearcher = await h
      .http()
      .get('/getSessionInfo')
      .query({ sessionId })
      .set(bo.headers)
      .expect(403);
    expect(JSON.stringify(otherResearcher.body)).not.toContain('secret-panel');
    // The participants' list carries no session fields beyond id, type and title.
    const listed = await h
      .http()
      .get('/getParticipantSessions')
      .set(h.person('participant', { email: cyEmail }).headers)
      .expect(200);
    expect(JSON.stringify(listed.body)).not.toContain('secret-panel');

    await edit(bo, { completionUrl: 'https://evil.example/' }).expect(403);
    expect((await infoOf(ada)).completionUrl).toBe('https://example.org/secret-panel');
    // Without the service token the internal route answers nothing.
    const anonymous = await h
      .http()
      .post(internalRoutes.studiesSessionLifecycle.path)
      .send({ sessionId, change: 'end' });
    expect(anonymous.status).toBe(403);
    expect(JSON.stringify(anonymous.body)).not.toContain('secret-panel');
  });

  it("fills a participant's panel ids into their completion URL, and only theirs", async () => {
    const template = 'https://survey.example.org/after?pid={{PROLIFIC_PID}}&study={{STUDY_ID}}';
    await edit(ada, { completionUrl: template, scope: 'Everyone' }).expect(200);
    const { token } = (
      await h.http().post('/createJoinLink').set(ada.headers).send({ sessionId }).expect(200)
    ).body.res.joinLink as { token: string };
    const [pam, pia] = [h.person('participant'), h.person('participant')];
    await h
      .http()
      .post('/joinSession')
      .set(pam.headers)
      .send({ token, panelIds: { PROLIFIC_PID: 'pam 1&2', STUDY_ID: 'S9' } })
      .expect(200);
    expect((await infoOf(pam)).completionUrl).toBe(
      'https://survey.example.org/after?pid=pam%201%262&study=S9',
    );
    // Without ids (not through the link): the placeholders are emptied, never shown as typed.
    expect((await infoOf(pia)).completionUrl).toBe('https://survey.example.org/after?pid=&study=');
    // The owner sees the template.
    expect((await infoOf(ada)).completionUrl).toBe(template);
  });
});
