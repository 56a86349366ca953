import { internalRoutes } from '@uis/proto';
import { fakeId, startStudies, type StudiesHarness, type TestPerson } from './studies-harness';

describe('deleting sessions and groups asks content and records first', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  beforeAll(async () => {
    h = await startStudies('deletion');
    ada = h.person('researcher');
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.content.reset();
    h.records.reset();
  });

  const newGroup = async (user = ada): Promise<string> =>
    (await h.http().post('/createGroup').set(user.headers).send({}).expect(200)).body.res.group
      .group_id as string;
  const newSession = async (groupId: string, user = ada): Promise<string> =>
    (await h.http().post('/createSession').set(user.headers).send({ groupId }).expect(200)).body.res.session
      .session_id as string;
  const sessionIdsOf = async (groupId: string): Promise<string[]> =>
    (await h.sql<{ id: string }>('SELECT id FROM sessions WHERE group_id = $1', [groupId])).map((r) => r.id);
  const groupExists = async (groupId: string) =>
    (await h.sql('SELECT 1 FROM groups WHERE id = $1', [groupId])).length === 1;
  const idsSentTo = (calls: Record<string, unknown>[]) =>
    calls.flatMap((c) => c.sessionIds as string[]).sort();

  it('deletes a session after content and records deleted its data', async () => {
    const groupId = await newGroup();
    const sessionId = await newSession(groupId);
    const kept = await newSession(groupId);
    await h.http().post('/deleteSession').set(ada.headers).send({ sessionId }).expect(200);
    expect(h.content.callsTo(internalRoutes.contentSessionDataDelete)).toEqual([{ sessionIds: [sessionId] }]);
    expect(h.records.callsTo(internalRoutes.recordsSessionDataDelete)).toEqual([{ sessionIds: [sessionId] }]);
    expect(await sessionIdsOf(groupId)).toEqual([kept]);
  });

  it('keeps the session when a data owner fails, and deletes it on retry', async () => {
    const groupId = await newGroup();
    const sessionId = await newSession(groupId);
    h.records.failNext(internalRoutes.recordsSessionDataDelete);
    const failed = await h.http().post('/deleteSession').set(ada.headers).send({ sessionId }).expect(503);
    expect(failed.body.res.code).toBe('UNAVAILABLE');
    expect(failed.body.res.message).toMatch(
      /^Nothing was deleted: records refused \/internal\/records\/session-data\/delete: .*Please try again\.$/,
    );
    expect(await sessionIdsOf(groupId)).toEqual([sessionId]);
    await h.http().get('/getSessionInfo').query({ sessionId }).set(ada.headers).expect(200);

    await h.http().post('/deleteSession').set(ada.headers).send({ sessionId }).expect(200);
    expect(await sessionIdsOf(groupId)).toEqual([]);
    expect(h.records.callsTo(internalRoutes.recordsSessionDataDelete)).toEqual([{ sessionIds: [sessionId] }]);
  });

  it('deletes a group with its sessions after their data, and nothing when an owner fails', async () => {
    const groupId = await newGroup();
    const sessions = [await newSession(groupId), await newSession(groupId), await newSession(groupId)];
    const other = await newGroup();
    const otherSession = await newSession(other);

    h.content.failNext(internalRoutes.contentSessionDataDelete);
    const failed = await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(503);
    expect(failed.body.res.message).toMatch(/^Nothing was deleted: content refused/);
    expect(await groupExists(groupId)).toBe(true);
    expect((await sessionIdsOf(groupId)).sort()).toEqual([...sessions].sort());

    h.content.reset();
    h.records.reset();
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    expect(idsSentTo(h.content.callsTo(internalRoutes.contentSessionDataDelete))).toEqual(
      [...sessions].sort(),
    );
    expect(idsSentTo(h.records.callsTo(internalRoutes.recordsSessionDataDelete))).toEqual(
      [...sessions].sort(),
    );
    expect(await groupExists(groupId)).toBe(false);
    expect(await sessionIdsOf(groupId)).toEqual([]);
    await h.http().get('/getSessions').query({ groupId }).set(ada.headers).expect(404);
    // Other groups are untouched.
    expect(await sessionIdsOf(other)).toEqual([otherSession]);
  });

  it('deletes an empty group without calling anyone', async () => {
    const groupId = await newGroup();
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    expect(h.content.calls).toEqual([]);
    expect(h.records.calls).toEqual([]);
    expect(await groupExists(groupId)).toBe(false);
  });

  it('sends at most 1000 session ids per call', async () => {
    const groupId = await newGroup();
    await h.sql(
      `INSERT INTO sessions (group_id, title, type) SELECT $1, 'S' || n, 'chat' FROM generate_series(1, 2001) n`,
      [groupId],
    );
    const all = (await sessionIdsOf(groupId)).sort();
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    for (const calls of [
      h.content.callsTo(internalRoutes.contentSessionDataDelete),
      h.records.callsTo(internalRoutes.recordsSessionDataDelete),
    ]) {
      expect(calls.map((c) => (c.sessionIds as string[]).length)).toEqual([1000, 1000, 1]);
      expect(idsSentTo(calls)).toEqual(all);
    }
    expect(await groupExists(groupId)).toBe(false);
  });

  it('notices a session created while its group is being deleted, and deletes its data too', async () => {
    const groupId = await newGroup();
    const first = await newSession(groupId);
    let late: string | undefined;
    h.content.onCall = async () => {
      if (late) return;
      // Another tab adds a session after studies asked for the data of the ones it knew.
      late = fakeId();
      await h.sql(`INSERT INTO sessions (id, group_id, title, type) VALUES ($1, $2, 'Late', 'video')`, [
        late,
        groupId,
      ]);
    };
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    expect(h.content.callsTo(internalRoutes.contentSessionDataDelete)).toEqual([
      { sessionIds: [first] },
      { sessionIds: [late] },
    ]);
    expect(h.records.callsTo(internalRoutes.recordsSessionDataDelete)).toEqual([
      { sessionIds: [first] },
      { sessionIds: [late] },
    ]);
    expect(await groupExists(groupId)).toBe(false);
  });

  it('answers 404 when the group is deleted before a session is created in it', async () => {
    const groupId = await newGroup();
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(404);
  });
});

describe('studies without session-data owners (proto’s list before content and records land)', () => {
  let h: StudiesHarness;
  beforeAll(async () => {
    h = await startStudies('deletion_no_owners', []);
  });
  afterAll(() => h.close());

  it('deletes sessions and groups calling no one', async () => {
    const ada = h.person('researcher');
    const groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id;
    const sessionId = (await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200))
      .body.res.session.session_id;
    await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200);
    await h.http().post('/deleteSession').set(ada.headers).send({ sessionId }).expect(200);
    await h.http().post('/deleteGroup').set(ada.headers).send({ groupId }).expect(200);
    expect(h.content.calls).toEqual([]);
    expect(h.records.calls).toEqual([]);
    expect(await h.sql('SELECT 1 FROM sessions')).toEqual([]);
  });
});
