import { sendInput } from '@uis/kit/testing';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

describe('groups', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let bo: TestPerson;
  beforeAll(async () => {
    h = await startStudies('groups');
    ada = h.person('researcher');
    bo = h.person('researcher');
  });
  afterAll(() => h.close());

  const createGroup = (user: TestPerson, body: Record<string, unknown> = {}) =>
    h.http().post('/createGroup').set(user.headers).send(body);
  const groupsOf = async (user: TestPerson) =>
    (await h.http().get('/getGroups').set(user.headers).expect(200)).body.res.groups as {
      group_id: string;
      title: string;
    }[];

  it('creates, lists (oldest first), renames and deletes the caller’s groups', async () => {
    const first = await createGroup(ada, { title: '  Pilot  ' }).expect(200);
    expect(first.body).toEqual({
      status: 'SUCCESS',
      res: { group: { group_id: expect.any(String), title: 'Pilot' } },
    });
    const second = (await createGroup(ada, { email: ada.user.email, title: 'Main' }).expect(200)).body.res
      .group;
    expect(await groupsOf(ada)).toEqual([first.body.res.group, second]);

    const renamed = await h
      .http()
      .post('/editGroup')
      .set(ada.headers)
      .send({ groupId: second.group_id, title: 'Main study' })
      .expect(200);
    expect(renamed.body.res).toEqual({ message: 'Group renamed.' });
    expect((await groupsOf(ada))[1]).toEqual({ group_id: second.group_id, title: 'Main study' });

    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId: second.group_id }).expect(200);
    expect(await groupsOf(ada)).toEqual([first.body.res.group]);
  });

  it('gives new groups the default title, numbered once it is taken', async () => {
    const user = h.person('researcher');
    const titles = [];
    for (let i = 0; i < 3; i++) titles.push((await createGroup(user).expect(200)).body.res.group.title);
    expect(titles).toEqual(['New group', 'New group 2', 'New group 3']);
    // Another researcher's groups do not count.
    expect((await createGroup(h.person('researcher')).expect(200)).body.res.group.title).toBe('New group');
  });

  it('shows and changes only the caller’s own groups', async () => {
    const adas = (await createGroup(ada, { title: 'Ada only' }).expect(200)).body.res.group;
    const bos = (await createGroup(bo, { title: 'Bo only' }).expect(200)).body.res.group;
    expect(await groupsOf(bo)).toEqual([bos]);
    expect((await groupsOf(ada)).map((g) => g.title)).not.toContain('Bo only');

    const rename = await h
      .http()
      .post('/editGroup')
      .set(bo.headers)
      .send({ groupId: adas.group_id, title: 'Mine now' })
      .expect(403);
    expect(rename.body).toEqual({
      status: 'ERROR',
      res: { message: 'This group belongs to another researcher.', code: 'FORBIDDEN' },
    });
    await h.http().post('/deleteGroup').set(bo.headers).send({ groupId: adas.group_id }).expect(403);
    expect((await groupsOf(ada)).find((g) => g.group_id === adas.group_id)?.title).toBe('Ada only');
  });

  it('answers 404 for a group that does not exist', async () => {
    const groupId = fakeId();
    const rename = await h
      .http()
      .post('/editGroup')
      .set(ada.headers)
      .send({ groupId, title: 'x' })
      .expect(404);
    expect(rename.body.res.message).toBe('No such group.');
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(404);
  });

  it('refuses an e-mail that is not the caller’s', async () => {
    const list = await h
      .http()
      .get('/getGroups')
      .query({ email: bo.user.email })
      .set(ada.headers)
      .expect(403);
    expect(list.body.res.message).toBe('You can only list your own groups.');
    const create = await createGroup(ada, { email: bo.user.email }).expect(403);
    expect(create.body.res.message).toBe('You can only create groups for yourself.');
    // The caller's own e-mail in another case is still theirs.
    await h
      .http()
      .get('/getGroups')
      .query({ email: ada.user.email.toUpperCase() })
      .set(ada.headers)
      .expect(200);
  });

  it('is for researchers only, and signed-in users only', async () => {
    const participant = h.person('participant');
    const groupId = fakeId();
    for (const call of [
      () => h.http().get('/getGroups'),
      () => h.http().post('/createGroup').send({}),
      () => h.http().post('/editGroup').send({ groupId, title: 'x' }),
      () => h.http().post('/deleteGroup').send({ groupId }),
    ]) {
      await call().expect(401);
      await call().set({ authorization: 'Bearer not-a-token' }).expect(401);
      const refused = await call().set(participant.headers).expect(403);
      expect(refused.body.res.message).toBe('Only researchers can do this.');
    }
  });

  it.each([
    ['GET', '/getGroups', 'a bad e-mail', { email: 'not-an-email' }, 'email: is not a valid e-mail address'],
    ['POST', '/createGroup', 'a blank title', { title: '   ' }, 'This field must not be empty'],
    [
      'POST',
      '/createGroup',
      'a long title',
      { title: 'x'.repeat(201) },
      'title: must be at most 200 characters',
    ],
    ['POST', '/createGroup', 'a title that is no text', { title: 7 }, 'title: must be text'],
    ['POST', '/editGroup', 'no groupId', { title: 'x' }, 'This field must not be empty'],
    ['POST', '/editGroup', 'a bad groupId', { groupId: '42', title: 'x' }, 'groupId: is not a valid id'],
    ['POST', '/editGroup', 'no title', { groupId: fakeId() }, 'This field must not be empty'],
    ['POST', '/deleteGroup', 'no groupId', {}, 'This field must not be empty'],
    ['POST', '/deleteGroup', 'a bad groupId', { groupId: 'nope' }, 'groupId: is not a valid id'],
  ] as const)('%s %s refuses %s with a 400 that says why', async (method, path, _label, input, message) => {
    const res = await sendInput(h.http(), method, path, input).set(ada.headers).expect(400);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.res.message).toBe(message);
  });
});
