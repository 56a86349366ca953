import { SESSION_OR_GROUP_TEXTS } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { startRecords, type Caller, type RecordsHarness } from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('record-counts');
});
afterAll(() => h.close());

const counts = (query: object, caller: Caller = 'owner') =>
  h.http().get('/getRecordCounts').set(h.as(caller).headers).query(query);

/** A group of the owner's of its own (the harness's sessions all share one group). */
async function newGroup(sessions: number): Promise<{ groupId: string; sessionIds: string[] }> {
  const group = await h.studiesHttp().post('/createGroup').set(h.as('owner').headers).send({}).expect(200);
  const groupId = group.body.res.group.group_id as string;
  const sessionIds: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const created = await h
      .studiesHttp()
      .post('/createSession')
      .set(h.as('owner').headers)
      .send({ groupId })
      .expect(200);
    sessionIds.push(created.body.res.session.session_id as string);
  }
  return { groupId, sessionIds };
}

describe('getRecordCounts', () => {
  it("counts a session's messages and clicks, and nothing of other sessions'", async () => {
    const sessionId = await h.session();
    const other = await h.session();
    await h.appendMessage(sessionId, { message: 'hi' });
    await h.addMessage('owner', sessionId, 'hello');
    await h.appendPixel(sessionId, { x: 0.5, y: 0.5, color: '#abc' });
    await h.appendMessage(other, { message: 'elsewhere' });
    await h.appendPixel(other, { x: 0.1, y: 0.1, color: '#abc' });

    const res = await counts({ sessionId }).expect(200);
    expect(res.body.res).toEqual({ sessions: 1, messages: 2, clicks: 1 });
    expect((await counts({ sessionId: await h.session() }).expect(200)).body.res).toEqual({
      sessions: 1,
      messages: 0,
      clicks: 0,
    });
  });

  it("adds up every session of a group, and answers an empty group's zeros", async () => {
    const { groupId, sessionIds } = await newGroup(2);
    await h.appendMessage(sessionIds[0]!, { message: 'one' });
    await h.appendMessage(sessionIds[1]!, { message: 'two' });
    await h.appendPixel(sessionIds[1]!, { x: 0.2, y: 0.3, color: '#abc' });
    await h.appendPixel(sessionIds[1]!, { x: 0.4, y: 0.3, color: '#abc' });
    expect((await counts({ groupId }).expect(200)).body.res).toEqual({ sessions: 2, messages: 2, clicks: 2 });

    const empty = await newGroup(0);
    expect((await counts({ groupId: empty.groupId }).expect(200)).body.res).toEqual({
      sessions: 0,
      messages: 0,
      clicks: 0,
    });
  });

  it.each([
    ['participant', 403],
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('refuses a session to %s (%i)', async (caller, status) => {
    const sessionId = await h.session();
    await counts({ sessionId }, caller).expect(status);
  });

  it.each([
    ['participant', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('refuses a group to %s (%i)', async (caller, status) => {
    const { groupId } = await newGroup(1);
    const res = await counts({ groupId }, caller).expect(status);
    if (caller === 'otherResearcher')
      expect(res.body.res.message).toBe('This group belongs to another researcher.');
  });

  it('answers 404 for an unknown session or group, 400 for neither or both ids', async () => {
    expect((await counts({ sessionId: randomUUID() }).expect(404)).body.res.message).toBe('No such session.');
    expect((await counts({ groupId: randomUUID() }).expect(404)).body.res.message).toBe('No such group.');
    expect((await counts({}).expect(400)).body.res.message).toBe(SESSION_OR_GROUP_TEXTS.neither);
    const both = await counts({ sessionId: randomUUID(), groupId: randomUUID() }).expect(400);
    expect(both.body.res.message).toBe(SESSION_OR_GROUP_TEXTS.both);
  });
});
