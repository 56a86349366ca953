import { sendInput } from '@uis/kit/testing';
import {
  CHAT_MESSAGE_MAX_CHARS,
  MessageRecord,
  internalRoutes,
  type MessageRecord as Message,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import {
  expectNoIdentities,
  startRecords,
  type Caller,
  type RecordsHarness,
} from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('messages');
});
afterAll(() => h.close());

const addMessage = (caller: Caller, sessionId: string, message: string): Promise<Message> =>
  h.addMessage(caller, sessionId, message);
const listMessages = async (sessionId: string, caller: Caller = 'owner'): Promise<Message[]> => {
  const res = await h.http().get('/getMessages').set(h.as(caller).headers).query({ sessionId }).expect(200);
  return (res.body.res.messages as unknown[]).map((m) => MessageRecord.parse(m));
};

describe('messages: create, read, update, delete', () => {
  it('a participant in scope adds a message under their own name, whatever name the payload says', async () => {
    const sessionId = await h.session();
    const before = Date.now();
    const res = await h
      .http()
      .post('/addMessage')
      .set(h.as('participant').headers)
      .send({ sessionId, name: 'Olga Owner (fake)', message: '  Hello there  ' })
      .expect(200);
    expect(res.body.status).toBe('SUCCESS');
    const message = res.body.res.message;
    expect(Object.keys(message).sort()).toEqual([
      'actionId',
      'message',
      'message_id',
      'name',
      'seq',
      'time',
      'videoTime',
    ]);
    expect(message).toEqual({
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      seq: expect.stringMatching(/^\d+$/),
      message: 'Hello there',
      time: expect.any(String),
      name: h.users.participant.name,
      videoTime: null,
      actionId: null,
    });
    const time = Date.parse(message.time);
    expect(time).toBeGreaterThanOrEqual(before - 1000);
    expect(time).toBeLessThanOrEqual(Date.now() + 1000);
    expectNoIdentities(h, res.body);

    expect(await listMessages(sessionId, 'participant')).toEqual([message]);
  });

  it('keeps the video time and a reaction’s action id a message came with, in the list and the live pages', async () => {
    const sessionId = await h.session();
    const actionId = randomUUID();
    const reaction = await h
      .http()
      .post('/addMessage')
      .set(h.as('participant').headers)
      .send({ sessionId, message: 'Pat reacted with Like', videoTime: 12.5, actionId })
      .expect(200);
    expect(reaction.body.res.message).toMatchObject({ videoTime: 12.5, actionId });
    const live = await h
      .internal(internalRoutes.recordsAppendMessages, {
        items: [
          { sessionId, ...h.author('owner'), message: 'typed', videoTime: 13 },
          { sessionId, ...h.author('owner'), message: 'before any play' },
        ],
      })
      .expect(200);
    expect(
      (live.body.res.messages as Message[]).map(({ videoTime, actionId }) => ({ videoTime, actionId })),
    ).toEqual([
      { videoTime: 13, actionId: null },
      { videoTime: null, actionId: null },
    ]);
    const listed = await listMessages(sessionId);
    expect(listed.map(({ message, videoTime, actionId }) => ({ message, videoTime, actionId }))).toEqual([
      { message: 'Pat reacted with Like', videoTime: 12.5, actionId },
      { message: 'typed', videoTime: 13, actionId: null },
      { message: 'before any play', videoTime: null, actionId: null },
    ]);
    const page = await h
      .internal(internalRoutes.recordsLatestMessages, { sessionIds: [sessionId], limit: 10 })
      .expect(200);
    expect(page.body.res.pages[0].messages).toEqual(listed);
  });

  it('refuses a negative video time and an action id that is not an id, storing nothing', async () => {
    const sessionId = await h.session();
    for (const [extra, problem] of [
      [{ videoTime: -1 }, 'videoTime: must not be negative'],
      [{ actionId: 'like' }, 'actionId: is not a valid id'],
    ] as const) {
      const res = await h
        .http()
        .post('/addMessage')
        .set(h.as('owner').headers)
        .send({ sessionId, message: 'x', ...extra })
        .expect(400);
      expect(res.body.res.message).toBe(problem);
    }
    expect(await listMessages(sessionId)).toEqual([]);
  });

  it('lists a session’s messages oldest first, for the owner and participants, without author e-mails or ids', async () => {
    const sessionId = await h.session();
    const other = await h.session();
    const first = await addMessage('owner', sessionId, 'first');
    const second = await addMessage('participant', sessionId, 'second');
    await addMessage('owner', other, 'elsewhere');
    const third = await addMessage('owner', sessionId, 'third');

    for (const caller of ['owner', 'participant'] as const) {
      const res = await h
        .http()
        .get('/getMessages')
        .set(h.as(caller).headers)
        .query({ sessionId })
        .expect(200);
      expect(res.body).toEqual({ status: 'SUCCESS', res: { messages: [first, second, third], next: null } });
      expectNoIdentities(h, res.body);
    }
    expect(first.name).toBe(h.users.owner.name);
    expect(second.name).toBe(h.users.participant.name);
  });

  it('an empty session has an empty list', async () => {
    expect(await listMessages(await h.session())).toEqual([]);
  });

  it('the owner edits a message’s text (trimmed); time and name stay', async () => {
    const sessionId = await h.session();
    const message = await addMessage('participant', sessionId, 'tpyo');
    const res = await h
      .http()
      .post('/editMessage')
      .set(h.as('owner').headers)
      .send({ messageId: message.message_id, message: ' typo fixed\nsecond line ' })
      .expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { message: 'Message updated.' } });
    expect(await listMessages(sessionId)).toEqual([{ ...message, message: 'typo fixed\nsecond line' }]);
  });

  it('the owner deletes a message; the others stay in order', async () => {
    const sessionId = await h.session();
    const a = await addMessage('owner', sessionId, 'a');
    const b = await addMessage('participant', sessionId, 'b');
    const c = await addMessage('owner', sessionId, 'c');
    const res = await h
      .http()
      .post('/deleteMessage')
      .set(h.as('owner').headers)
      .send({ messageId: b.message_id })
      .expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { message: 'Message deleted.' } });
    expect(await listMessages(sessionId)).toEqual([a, c]);
    // A second delete finds nothing.
    await h
      .http()
      .post('/deleteMessage')
      .set(h.as('owner').headers)
      .send({ messageId: b.message_id })
      .expect(404);
  });

  it('a session whose scope is Everyone lets any participant read and write', async () => {
    const sessionId = await h.session({ scope: null });
    const message = await addMessage('outsider', sessionId, 'open to all');
    expect(await listMessages(sessionId, 'outsider')).toEqual([message]);
  });
});

describe('messages: who may do what', () => {
  const expected: Record<string, Record<Caller, number>> = {
    getMessages: { owner: 200, participant: 200, outsider: 403, otherResearcher: 403, anonymous: 401 },
    addMessage: { owner: 200, participant: 200, outsider: 403, otherResearcher: 403, anonymous: 401 },
    editMessage: { owner: 200, participant: 403, outsider: 403, otherResearcher: 403, anonymous: 401 },
    deleteMessage: { owner: 200, participant: 403, outsider: 403, otherResearcher: 403, anonymous: 401 },
  };

  const call = (route: string, caller: Caller, sessionId: string, messageId: string) => {
    const req = h.http();
    switch (route) {
      case 'getMessages':
        return req.get('/getMessages').set(h.as(caller).headers).query({ sessionId });
      case 'addMessage':
        return req
          .post('/addMessage')
          .set(h.as(caller).headers)
          .send({ sessionId, message: `from ${caller}` });
      case 'editMessage':
        return req
          .post('/editMessage')
          .set(h.as(caller).headers)
          .send({ messageId, message: `edited by ${caller}` });
      default:
        return req.post('/deleteMessage').set(h.as(caller).headers).send({ messageId });
    }
  };

  for (const [route, statuses] of Object.entries(expected)) {
    for (const caller of Object.keys(statuses) as Caller[]) {
      const status = statuses[caller];
      it(`${route} by ${caller}: ${status}`, async () => {
        const sessionId = await h.session();
        const original = await addMessage('participant', sessionId, 'original');
        const res = await call(route, caller, sessionId, original.message_id).expect(status);
        if (status !== 200) {
          expect(res.body.status).toBe('ERROR');
          expect(res.body.res.message).toEqual(expect.any(String));
          // A refusal changes nothing.
          expect(await listMessages(sessionId)).toEqual([original]);
        } else {
          expectNoIdentities(h, res.body);
        }
      });
    }
  }

  it('a participant may not edit or delete even their own message (the route is for researchers)', async () => {
    const sessionId = await h.session();
    const original = await addMessage('participant', sessionId, 'mine');
    const edit = await h
      .http()
      .post('/editMessage')
      .set(h.as('participant').headers)
      .send({ messageId: original.message_id, message: 'changed' })
      .expect(403);
    expect(edit.body.res.message).toBe('Only researchers can do this.');
    const res = await h
      .http()
      .post('/deleteMessage')
      .set(h.as('participant').headers)
      .send({ messageId: original.message_id })
      .expect(403);
    expect(res.body.res.message).toBe('Only researchers can do this.');
    expect(await listMessages(sessionId)).toEqual([original]);
  });

  it('another researcher is told they do not own the session', async () => {
    const sessionId = await h.session();
    const original = await addMessage('owner', sessionId, 'mine');
    const res = await h
      .http()
      .post('/editMessage')
      .set(h.as('otherResearcher').headers)
      .send({ messageId: original.message_id, message: 'hijacked' })
      .expect(403);
    expect(res.body.res.message).toBe('Only the researcher who owns this session can do this.');
  });

  it('a participant taken out of the scope is refused on the very next request', async () => {
    const sessionId = await h.session();
    await addMessage('participant', sessionId, 'still in');
    await h
      .studiesHttp()
      .post('/editSessionInfo')
      .set(h.as('owner').headers)
      .send({ sessionId, scope: [h.users.outsider.email] })
      .expect(200);
    await h.http().get('/getMessages').set(h.as('participant').headers).query({ sessionId }).expect(403);
    await h
      .http()
      .post('/addMessage')
      .set(h.as('participant').headers)
      .send({ sessionId, message: 'x' })
      .expect(403);
    expect((await listMessages(sessionId, 'outsider')).map((m) => m.message)).toEqual(['still in']);
  });

  it('an unknown session is 404 for reads and writes', async () => {
    const sessionId = randomUUID();
    const get = await h
      .http()
      .get('/getMessages')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(404);
    expect(get.body.res.message).toBe('No such session.');
    await h
      .http()
      .post('/addMessage')
      .set(h.as('participant').headers)
      .send({ sessionId, message: 'x' })
      .expect(404);
  });

  it('an unknown message is 404 for edit and delete', async () => {
    const messageId = randomUUID();
    const edit = await h
      .http()
      .post('/editMessage')
      .set(h.as('owner').headers)
      .send({ messageId, message: 'x' })
      .expect(404);
    expect(edit.body.res.message).toBe('No such message.');
    await h.http().post('/deleteMessage').set(h.as('owner').headers).send({ messageId }).expect(404);
  });

  it('a message of a session studies does not have is 404 (the session is gone)', async () => {
    // Realtime's append trusts its caller, so a row can name a session studies never had.
    const message = await h.appendMessage(randomUUID(), { message: 'orphan' }, 'owner');
    const res = await h
      .http()
      .post('/deleteMessage')
      .set(h.as('owner').headers)
      .send({ messageId: message.message_id })
      .expect(404);
    expect(res.body.res.message).toBe('No such session.');
  });

  it('a bad or expired token is 401', async () => {
    const sessionId = await h.session();
    await h
      .http()
      .get('/getMessages')
      .set({ authorization: 'Bearer nonsense' })
      .query({ sessionId })
      .expect(401);
  });
});

describe('messages: bad input is a 400 that says what is wrong', () => {
  const sessionId = randomUUID();
  const messageId = randomUUID();
  const long = 'x'.repeat(CHAT_MESSAGE_MAX_CHARS + 1);
  const cases: [string, 'GET' | 'POST', string, object, string][] = [
    ['getMessages without sessionId', 'GET', '/getMessages', {}, 'This field must not be empty'],
    [
      'getMessages with a bad id',
      'GET',
      '/getMessages',
      { sessionId: 'abc' },
      'sessionId: is not a valid id',
    ],
    ['addMessage without a message', 'POST', '/addMessage', { sessionId }, 'This field must not be empty'],
    [
      'addMessage with a blank message',
      'POST',
      '/addMessage',
      { sessionId, message: '   ' },
      'This field must not be empty',
    ],
    ['addMessage with a number', 'POST', '/addMessage', { sessionId, message: 5 }, 'message: must be text'],
    [
      'addMessage too long',
      'POST',
      '/addMessage',
      { sessionId, message: long },
      `message: must be at most ${CHAT_MESSAGE_MAX_CHARS} characters`,
    ],
    [
      'addMessage with a bad session id',
      'POST',
      '/addMessage',
      { sessionId: 'x', message: 'hi' },
      'sessionId: is not a valid id',
    ],
    [
      'addMessage with a name that is not text',
      'POST',
      '/addMessage',
      { sessionId, message: 'hi', name: 7 },
      'name: must be text',
    ],
    [
      'editMessage without messageId',
      'POST',
      '/editMessage',
      { message: 'hi' },
      'This field must not be empty',
    ],
    [
      'editMessage with a bad id',
      'POST',
      '/editMessage',
      { messageId: '1', message: 'hi' },
      'messageId: is not a valid id',
    ],
    [
      'editMessage to blank',
      'POST',
      '/editMessage',
      { messageId, message: '' },
      'This field must not be empty',
    ],
    [
      'editMessage too long',
      'POST',
      '/editMessage',
      { messageId, message: long },
      `message: must be at most ${CHAT_MESSAGE_MAX_CHARS} characters`,
    ],
    ['deleteMessage without messageId', 'POST', '/deleteMessage', {}, 'This field must not be empty'],
    [
      'deleteMessage with a bad id',
      'POST',
      '/deleteMessage',
      { messageId: 'nope' },
      'messageId: is not a valid id',
    ],
  ];

  it.each(cases)('%s', async (_label, method, path, input, message) => {
    const res = await sendInput(h.http(), method, path, input).set(h.as('owner').headers).expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message, code: 'VALIDATION', issues: expect.any(Array) },
    });
  });

  it('a body that is not JSON is a 400, not a 500', async () => {
    const res = await h
      .http()
      .post('/addMessage')
      .set(h.as('owner').headers)
      .set('content-type', 'application/json')
      .send('{"sessionId": ')
      .expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message: expect.stringMatching(/JSON/), code: 'VALIDATION' },
    });
  });
});
