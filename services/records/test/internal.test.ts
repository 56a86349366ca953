import { internalRoutes, MessageRecord, PixelRecord } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { expectNoIdentities, startRecords, type RecordsHarness } from './records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('internal');
});
afterAll(() => h.close());

const author = () => ({
  userId: h.users.participant.id,
  email: h.users.participant.email,
  name: h.users.participant.name,
});
const appendMessage = async (sessionId: string, message: string, by = author()) => {
  const res = await h
    .internal(internalRoutes.recordsAppendMessage, { sessionId, ...by, message })
    .expect(200);
  return MessageRecord.parse(res.body.res.message);
};
const appendPixel = async (sessionId: string, extra: object = {}, by = author()) => {
  const res = await h
    .internal(internalRoutes.recordsAppendPixel, {
      sessionId,
      ...by,
      x: 0.5,
      y: 0.5,
      color: '#fff',
      ...extra,
    })
    .expect(200);
  return PixelRecord.parse(res.body.res.pixel);
};
const listed = async (sessionId: string) => {
  const res = await h.internal(internalRoutes.recordsListMessages, { sessionId }).expect(200);
  return res.body.res.messages as unknown[];
};
const pixelsOf = async (sessionId: string) => {
  const res = await h.http().get('/getPixels').set(h.as('owner')).query({ sessionId }).expect(200);
  return res.body.res.pixels as unknown[];
};

describe('internal endpoints need the service token', () => {
  const sessionId = randomUUID();
  const calls = () =>
    [
      [internalRoutes.recordsListMessages, { sessionId }],
      [
        internalRoutes.recordsAppendMessage,
        { sessionId, userId: randomUUID(), email: 'n@uni.test', name: 'N', message: 'm' },
      ],
      [
        internalRoutes.recordsAppendPixel,
        { sessionId, userId: randomUUID(), email: 'n@uni.test', name: 'N', x: 0, y: 0, color: '#000' },
      ],
      [internalRoutes.recordsSessionDataDelete, { sessionIds: [sessionId] }],
      [internalRoutes.recordsUserDataDelete, { userId: randomUUID(), email: 'a@b.test' }],
    ] as const;

  it.each([
    ['no token', null],
    ['a wrong token', 'x'.repeat(64)],
  ])('%s is 403 on every internal route, and nothing is written', async (_label, token) => {
    for (const [route, input] of calls()) {
      const res = await h.internal(route, input, token).expect(403);
      expect(res.body.res.message).toBe('Internal endpoint: a valid service token is required.');
    }
    expect(await listed(sessionId)).toEqual([]);
  });

  it('a user’s access token is no service token', async () => {
    await h.internal(internalRoutes.recordsListMessages, { sessionId }, null).set(h.as('owner')).expect(403);
  });
});

describe('realtime appends, then lists the full ordered list', () => {
  it('append answers the stored message; list gives every message in append order, without identities', async () => {
    const sessionId = await h.newSession();
    const appended = [];
    for (let i = 0; i < 20; i++) appended.push(await appendMessage(sessionId, `message ${i}`));
    const res = await h.internal(internalRoutes.recordsListMessages, { sessionId }).expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { messages: appended } });
    expectNoIdentities(h, res.body);
    // time is the server's clock, never going back along the order.
    const times = appended.map((m) => Date.parse(m.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(appended[0]!.name).toBe(h.users.participant.name);
  });

  it('REST and realtime messages share one order, and REST readers see the same list', async () => {
    const sessionId = await h.newSession();
    const a = await appendMessage(sessionId, 'live 1');
    const rest = await h
      .http()
      .post('/addMessage')
      .set(h.as('owner'))
      .send({ sessionId, message: 'typed in the panel' })
      .expect(200);
    const b = await appendMessage(sessionId, 'live 2');
    const all = [a, rest.body.res.message, b];
    expect(await listed(sessionId)).toEqual(all);
    const viaRest = await h
      .http()
      .get('/getMessages')
      .set(h.as('participant'))
      .query({ sessionId })
      .expect(200);
    expect(viaRest.body.res.messages).toEqual(all);
  });

  it('concurrent appends are all kept, each once, in one order that stays the same', async () => {
    const sessionId = await h.newSession();
    const sent = Array.from({ length: 40 }, (_, i) => `burst ${i}`);
    const answers = await Promise.all(sent.map((text) => appendMessage(sessionId, text)));
    const first = (await listed(sessionId)) as { message_id: string; message: string }[];
    expect(first).toHaveLength(sent.length);
    expect(new Set(first.map((m) => m.message_id))).toEqual(new Set(answers.map((m) => m.message_id)));
    expect(first.map((m) => m.message).sort()).toEqual([...sent].sort());
    expect(await listed(sessionId)).toEqual(first);
  });

  it('the author is whoever realtime says (it checked the socket user), the name trimmed', async () => {
    const sessionId = await h.newSession();
    const message = await appendMessage(sessionId, 'hi', {
      userId: h.users.owner.id,
      email: h.users.owner.email,
      name: '  Owner Olga ',
    });
    expect(message.name).toBe('Owner Olga');
  });

  it('appends a click with or without the video time', async () => {
    const sessionId = await h.newSession();
    const timed = await appendPixel(sessionId, { videoTime: 42.25, x: 0, y: 1 });
    const untimed = await appendPixel(sessionId, { color: 'n/a' });
    expect(timed).toEqual({
      pixel_id: expect.any(String),
      time: expect.any(String),
      name: h.users.participant.name,
      color: '#fff',
      x: 0,
      y: 1,
      sessionId,
      videoTime: 42.25,
    });
    expect(untimed.videoTime).toBeNull();
    expect(await pixelsOf(sessionId)).toEqual([timed, untimed]);
  });

  it('an empty session lists an empty list', async () => {
    expect(await listed(randomUUID())).toEqual([]);
  });
});

describe('session and user data deletes', () => {
  it('deleting sessions removes their messages and clicks only; a second call succeeds too', async () => {
    const [a, b, kept] = [await h.newSession(), await h.newSession(), await h.newSession()];
    for (const sessionId of [a, b, kept]) {
      await appendMessage(sessionId, 'bye');
      await appendPixel(sessionId);
    }
    const keptMessages = await listed(kept);
    const keptPixels = await pixelsOf(kept);

    const res = await h
      .internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [a, b, randomUUID()] })
      .expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { message: 'Deleted 4 records of 3 sessions.' } });
    for (const gone of [a, b]) {
      expect(await listed(gone)).toEqual([]);
      expect(await pixelsOf(gone)).toEqual([]);
    }
    expect(await listed(kept)).toEqual(keptMessages);
    expect(await pixelsOf(kept)).toEqual(keptPixels);

    const again = await h
      .internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [a, b] })
      .expect(200);
    expect(again.body.res.message).toBe('Deleted 0 records of 2 sessions.');
  });

  it('deleting a session in studies has studies delete its records here first', async () => {
    const [gone, kept] = [await h.newSession(), await h.newSession()];
    await appendMessage(gone, 'soon gone');
    await appendPixel(gone);
    const keptMessage = await appendMessage(kept, 'stays');
    await h.studiesHttp().post('/deleteSession').set(h.as('owner')).send({ sessionId: gone }).expect(200);
    expect(await listed(gone)).toEqual([]);
    const pixels = await h.http().get('/getPixels').set(h.as('owner')).query({ sessionId: gone }).expect(404);
    expect(pixels.body.res.message).toBe('No such session.');
    expect(await listed(kept)).toEqual([keptMessage]);
  });

  it('deleting a user removes what they wrote in every session, and nothing of anyone else', async () => {
    const leaving = h.person('Leaving Lee');
    const [s1, s2] = [await h.newSession({ scope: null }), await h.newSession({ scope: null })];
    const by = { userId: leaving.user.id, email: leaving.user.email, name: leaving.user.name };
    await appendMessage(s1, 'mine 1', by);
    await appendPixel(s1, {}, by);
    await appendMessage(s2, 'mine 2', by);
    await h
      .http()
      .post('/addMessage')
      .set(leaving.headers)
      .send({ sessionId: s2, message: 'mine 3' })
      .expect(200);
    const othersMessage = await appendMessage(s1, 'not mine');
    const othersPixel = await appendPixel(s2);

    const res = await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: leaving.user.id, email: leaving.user.email })
      .expect(200);
    expect(res.body.res.message).toBe('Deleted 4 records of the user.');
    expect(await listed(s1)).toEqual([othersMessage]);
    expect(await listed(s2)).toEqual([]);
    expect(await pixelsOf(s1)).toEqual([]);
    expect(await pixelsOf(s2)).toEqual([othersPixel]);

    const again = await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: leaving.user.id, email: leaving.user.email })
      .expect(200);
    expect(again.body.res.message).toBe('Deleted 0 records of the user.');
  });
});

describe('internal endpoints: bad input is a 400 that says what is wrong', () => {
  const sessionId = randomUUID();
  const userId = randomUUID();
  const pixel = { sessionId, userId, email: 'n@uni.test', name: 'N', x: 0.5, y: 0.5, color: '#000' };
  const cases = [
    ['list without sessionId', internalRoutes.recordsListMessages, {}, 'This field must not be empty'],
    [
      'list with a bad id',
      internalRoutes.recordsListMessages,
      { sessionId: 'x' },
      'sessionId: is not a valid id',
    ],
    [
      'append without userId',
      internalRoutes.recordsAppendMessage,
      { sessionId, name: 'N', message: 'm' },
      'This field must not be empty',
    ],
    [
      'append with a blank name',
      internalRoutes.recordsAppendMessage,
      { sessionId, userId, email: 'n@uni.test', name: ' ', message: 'm' },
      'This field must not be empty',
    ],
    [
      'append with a blank message',
      internalRoutes.recordsAppendMessage,
      { sessionId, userId, email: 'n@uni.test', name: 'N', message: '' },
      'This field must not be empty',
    ],
    [
      'append a click with x above 1',
      internalRoutes.recordsAppendPixel,
      { ...pixel, x: 1.2 },
      'x: must be from 0 to 1',
    ],
    [
      'append a click with y below 0',
      internalRoutes.recordsAppendPixel,
      { ...pixel, y: -0.2 },
      'y: must be from 0 to 1',
    ],
    [
      'append a click with a bad colour',
      internalRoutes.recordsAppendPixel,
      { ...pixel, color: 'red' },
      "color: must be rgb(r, g, b), rgba(r, g, b, a), a hex colour or 'n/a'",
    ],
    [
      'append a click with a negative video time',
      internalRoutes.recordsAppendPixel,
      { ...pixel, videoTime: -3 },
      'videoTime: must not be negative',
    ],
    [
      'session delete with no ids',
      internalRoutes.recordsSessionDataDelete,
      { sessionIds: [] },
      expect.stringMatching(/^sessionIds: /),
    ],
    [
      'session delete with a bad id',
      internalRoutes.recordsSessionDataDelete,
      { sessionIds: ['x'] },
      'sessionIds.0: is not a valid id',
    ],
    [
      'session delete with too many ids',
      internalRoutes.recordsSessionDataDelete,
      { sessionIds: Array.from({ length: 1001 }, () => randomUUID()) },
      expect.stringMatching(/^sessionIds: /),
    ],
    [
      'user delete without email',
      internalRoutes.recordsUserDataDelete,
      { userId },
      'This field must not be empty',
    ],
    [
      'user delete with a bad email',
      internalRoutes.recordsUserDataDelete,
      { userId, email: 'nope' },
      'email: is not a valid e-mail address',
    ],
  ] as const;

  it.each(cases)('%s', async (_label, route, input, message) => {
    const res = await h.internal(route, input).expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message, code: 'VALIDATION', issues: expect.any(Array) },
    });
  });
});
