import { SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

/** `GET /internal/studies/group-sessions`: the sessions records' study export of a group covers. */
describe('internal group sessions', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let bo: TestPerson;
  beforeAll(async () => {
    h = await startStudies('group_sessions');
    ada = h.person('researcher', { email: 'ada@lab.test' });
    bo = h.person('researcher', { email: 'bo@lab.test' });
  });
  afterAll(() => h.close());

  const newGroup = async (user: TestPerson): Promise<string> =>
    (await h.http().post('/createGroup').set(user.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  const newSession = async (user: TestPerson, groupId: string): Promise<string> =>
    (await h.http().post('/createSession').set(user.headers).send({ groupId }).expect(200)).body.res.session
      .session_id as string;
  const ask = (query: Record<string, string>, token: string | null = h.env.SERVICE_TOKEN!) => {
    const call = h.http().get(internalRoutes.studiesGroupSessions.path).query(query);
    return token === null ? call : call.set(SERVICE_TOKEN_HEADER, token);
  };

  it("answers the owner the group's sessions, oldest first, and only that group's", async () => {
    const groupId = await newGroup(ada);
    const other = await newGroup(ada);
    const sessions = [await newSession(ada, groupId), await newSession(ada, groupId)];
    await newSession(ada, other);
    sessions.push(await newSession(ada, groupId));
    const res = await ask({ groupId, userId: ada.user.id }).expect(200);
    expect(res.body.res).toEqual({ exists: true, owner: true, sessionIds: sessions });
  });

  it('answers an empty group as one without sessions', async () => {
    const groupId = await newGroup(ada);
    expect((await ask({ groupId, userId: ada.user.id }).expect(200)).body.res).toEqual({
      exists: true,
      owner: true,
      sessionIds: [],
    });
  });

  it('tells another researcher the group is not theirs, without its sessions', async () => {
    const groupId = await newGroup(ada);
    await newSession(ada, groupId);
    expect((await ask({ groupId, userId: bo.user.id }).expect(200)).body.res).toEqual({
      exists: true,
      owner: false,
      sessionIds: [],
    });
  });

  it('says an unknown group does not exist', async () => {
    expect((await ask({ groupId: fakeId(), userId: ada.user.id }).expect(200)).body.res).toEqual({
      exists: false,
      owner: false,
      sessionIds: [],
    });
  });

  it('refuses bad ids (400) and callers without the service token (403)', async () => {
    const bad = await ask({ groupId: 'nope', userId: ada.user.id }).expect(400);
    expect(bad.body.res.message).toBe('groupId: is not a valid id');
    await ask({ userId: ada.user.id }).expect(400);
    await ask({ groupId: fakeId(), userId: ada.user.id }, null).expect(403);
    await ask({ groupId: fakeId(), userId: ada.user.id }, 'x'.repeat(40)).expect(403);
  });
});
