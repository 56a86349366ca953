import { startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/**
 * Everyone, made safe: the spec's default scope stays, but a participant's list shows another
 * lab's Everyone sessions only once that lab's link, invitation or session brought them; a
 * deployment may make new sessions start with nobody (DEFAULT_SESSION_SCOPE=invited).
 */
describe('Everyone sessions in a participant’s list', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let bo: TestPerson;
  beforeAll(async () => {
    h = await startStudies('everyone_listing');
    ada = h.person('researcher', { email: 'ada@lab-a.test' });
    bo = h.person('researcher', { email: 'bo@lab-b.test' });
  });
  afterAll(() => h.close());

  const newSession = async (owner: TestPerson) => {
    const groupId = (await h.http().post('/createGroup').set(owner.headers).send({}).expect(200)).body.res
      .group.group_id as string;
    return (await h.http().post('/createSession').set(owner.headers).send({ groupId }).expect(200)).body.res
      .session.session_id as string;
  };
  const listed = async (user: TestPerson) =>
    (
      (await h.http().get('/getParticipantSessions').set(user.headers).expect(200)).body.res.sessions as {
        session_id: string;
      }[]
    ).map((session) => session.session_id);

  it("lists a lab's Everyone sessions only to participants that lab brought", async () => {
    const [adaOpen, boOpen] = [await newSession(ada), await newSession(bo)];
    const pat = h.person('participant', { email: 'pat@uni.test' });
    expect(await listed(pat)).toEqual([]);
    // Still opened by its link, as the spec has it.
    await h.http().get('/getSessionInfo').query({ sessionId: boOpen }).set(pat.headers).expect(200);

    // Ada's join link brings Pat: Ada's Everyone sessions are listed to them, Bo's are not.
    const { token } = (
      await h.http().post('/createJoinLink').set(ada.headers).send({ sessionId: adaOpen }).expect(200)
    ).body.res.joinLink as { token: string };
    await h.http().post('/joinSession').set(pat.headers).send({ token }).expect(200);
    const adaLater = await newSession(ada);
    expect(await listed(pat)).toEqual([adaOpen, adaLater]);
  });

  it('starts new sessions with nobody when the deployment says so', async () => {
    const invitedOnly = await startStudies('everyone_listing_invited', undefined, {
      DEFAULT_SESSION_SCOPE: 'invited',
    });
    try {
      const owner = invitedOnly.person('researcher');
      const groupId = (await invitedOnly.http().post('/createGroup').set(owner.headers).send({}).expect(200))
        .body.res.group.group_id as string;
      const { session } = (
        await invitedOnly.http().post('/createSession').set(owner.headers).send({ groupId }).expect(200)
      ).body.res as { session: { scope: unknown; session_id: string } };
      expect(session.scope).toEqual([]);
      await invitedOnly
        .http()
        .get('/getSessionInfo')
        .query({ sessionId: session.session_id })
        .set(invitedOnly.person('participant').headers)
        .expect(403);
    } finally {
      await invitedOnly.close();
    }
  });
});
