import { invalidPayloadOf } from '@uis/kit/testing';
import fc from 'fast-check';
import {
  LIVE_MESSAGE_PAGE,
  MESSAGES_PER_APPEND,
  SESSIONS_PER_LATEST_READ,
  internalRoutes,
  MessageRecord,
  type InternalRouteDef,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { expectNoIdentities, startRecords, type RecordsHarness } from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('internal');
});
afterAll(() => h.close());

const author = () => h.author('participant');
const appendMessage = (sessionId: string, message: string, by = author()) =>
  h.appendMessage(sessionId, { message }, by);
const appendPixel = (sessionId: string, extra: object = {}, by = author()) =>
  h.appendPixel(sessionId, extra, by);
const listed = async (sessionId: string) => {
  const res = await h.internal(internalRoutes.recordsListMessages, { sessionId }).expect(200);
  return res.body.res.messages as unknown[];
};
/** Every message stored in records, whatever the session: a refused call must leave it as it was. */
const countAllMessages = async () =>
  (await h.pg.query<{ n: string }>('SELECT count(*) AS n FROM records.messages')).rows[0]!.n;
/**
 * Generated bad input (kit's invalidPayloadOf of the route's own schema): 100 JSON objects the
 * kit's parser takes (other bodies and bodies over its limit: kit's http tests), each a 4xx with a
 * message, and nothing stored.
 */
const expectGeneratedBadInputRefused = async (route: InternalRouteDef) => {
  const sendable = (payload: unknown) => {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
    const json = JSON.stringify(payload);
    return json !== undefined && json.length < 90_000 && !route.request.safeParse(JSON.parse(json)).success;
  };
  const payloads = fc
    .sample(invalidPayloadOf(route.request), { numRuns: 1000, seed: Number(process.env.FUZZ_SEED ?? 42) })
    .filter(sendable)
    .slice(0, 100);
  expect(payloads).toHaveLength(100);
  const before = await countAllMessages();
  const unclear: unknown[] = [];
  for (const payload of payloads) {
    const res = await h.internal(route, payload as never);
    if (res.status < 400 || res.status >= 500 || typeof res.body?.res?.message !== 'string')
      unclear.push({ payload, res: res.body });
  }
  expect(unclear).toEqual([]);
  expect(await countAllMessages()).toBe(before);
};
const pixelsOf = async (sessionId: string) => {
  const res = await h.http().get('/getPixels').set(h.as('owner').headers).query({ sessionId }).expect(200);
  return res.body.res.pixels as unknown[];
};

describe('internal endpoints need the service token', () => {
  const sessionId = randomUUID();
  const calls = () =>
    [
      [internalRoutes.recordsListMessages, { sessionId }],
      [internalRoutes.recordsLatestMessages, { sessionIds: [sessionId] }],
      [
        internalRoutes.recordsAppendMessages,
        { items: [{ sessionId, userId: randomUUID(), email: 'n@uni.test', name: 'N', message: 'm' }] },
      ],
      [
        internalRoutes.recordsAppendPixel,
        { sessionId, userId: randomUUID(), email: 'n@uni.test', name: 'N', x: 0, y: 0, color: '#000' },
      ],
      [
        internalRoutes.recordsAppendPlayback,
        {
          sessionId,
          userId: randomUUID(),
          email: 'n@uni.test',
          name: 'N',
          event: 'play',
          videoTime: 0,
          playbackRate: 1,
        },
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
    await h
      .internal(internalRoutes.recordsListMessages, { sessionId }, null)
      .set(h.as('owner').headers)
      .expect(403);
  });
});

describe('realtime appends, then lists the full ordered list', () => {
  it('append answers the stored message; list gives every message in append order, without identities', async () => {
    const sessionId = await h.session();
    const appended = [];
    for (let i = 0; i < 20; i++) appended.push(await appendMessage(sessionId, `message ${i}`));
    const res = await h.internal(internalRoutes.recordsListMessages, { sessionId }).expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { messages: appended, hasMore: false } });
    expectNoIdentities(h, res.body);
    // time is the server's clock, never going back along the order.
    const times = appended.map((m) => Date.parse(m.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(appended[0]!.name).toBe(h.users.participant.name);
  });

  it('REST and realtime messages share one order, and REST readers see the same list', async () => {
    const sessionId = await h.session();
    const a = await appendMessage(sessionId, 'live 1');
    const rest = await h
      .http()
      .post('/addMessage')
      .set(h.as('owner').headers)
      .send({ sessionId, message: 'typed in the panel' })
      .expect(200);
    const b = await appendMessage(sessionId, 'live 2');
    const all = [a, rest.body.res.message, b];
    expect(await listed(sessionId)).toEqual(all);
    const viaRest = await h
      .http()
      .get('/getMessages')
      .set(h.as('participant').headers)
      .query({ sessionId })
      .expect(200);
    expect(viaRest.body.res.messages).toEqual(all);
  });

  it('lists in pages: the newest `limit`, then the ones before a message, each oldest first', async () => {
    const sessionId = await h.session();
    const appended = [];
    for (let i = 0; i < 7; i++) appended.push(await appendMessage(sessionId, `paged ${i}`));
    const page = async (query: { before?: string; limit: number }) =>
      (await h.internal(internalRoutes.recordsListMessages, { sessionId, ...query }).expect(200)).body
        .res as {
        messages: { message: string; message_id: string }[];
        hasMore: boolean;
      };
    const newest = await page({ limit: 3 });
    expect([newest.messages.map((m) => m.message), newest.hasMore]).toEqual([
      ['paged 4', 'paged 5', 'paged 6'],
      true,
    ]);
    const before = await page({ before: newest.messages[0]!.message_id, limit: 3 });
    expect([before.messages.map((m) => m.message), before.hasMore]).toEqual([
      ['paged 1', 'paged 2', 'paged 3'],
      true,
    ]);
    const first = await page({ before: before.messages[0]!.message_id, limit: 3 });
    expect([first.messages.map((m) => m.message), first.hasMore]).toEqual([['paged 0'], false]);
    // A message of another session, or none at all, is no place to page from.
    const other = await appendMessage(await h.session(), 'elsewhere');
    for (const unknown of [other.message_id, randomUUID()]) {
      const res = await h
        .internal(internalRoutes.recordsListMessages, { sessionId, before: unknown, limit: 3 })
        .expect(404);
      expect(res.body.res.message).toBe('No such message in this session.');
    }
    await h.internal(internalRoutes.recordsListMessages, { sessionId, limit: 501 }).expect(400);
  });

  it('concurrent appends are all kept, each once, in one order that stays the same', async () => {
    const sessionId = await h.session();
    const sent = Array.from({ length: 40 }, (_, i) => `burst ${i}`);
    const answers = await Promise.all(sent.map((text) => appendMessage(sessionId, text)));
    const first = (await listed(sessionId)) as { message_id: string; message: string }[];
    expect(first).toHaveLength(sent.length);
    expect(new Set(first.map((m) => m.message_id))).toEqual(new Set(answers.map((m) => m.message_id)));
    expect(first.map((m) => m.message).sort()).toEqual([...sent].sort());
    expect(await listed(sessionId)).toEqual(first);
  });

  it('the author is whoever realtime says (it checked the socket user), the name trimmed', async () => {
    const sessionId = await h.session();
    const message = await appendMessage(sessionId, 'hi', {
      userId: h.users.owner.id,
      email: h.users.owner.email,
      name: '  Owner Olga ',
    });
    expect(message.name).toBe('Owner Olga');
  });

  it('appends a click with or without the video time', async () => {
    const sessionId = await h.session();
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

describe('realtime appends in groups (recordsAppendMessages)', () => {
  type Item = { sessionId: string; userId: string; email: string; name: string; message: string };
  const appendMessages = (items: Item[]) => h.appendMessages(items);
  /** The rows as stored, in the session order (seq), with what answers never show. */
  const storedRows = async (sessionIds: string[]) => {
    const { rows } = await h.pg.query<{
      id: string;
      session_id: string;
      author_user_id: string;
      author_email: string;
      name: string;
      message: string;
    }>(
      `SELECT id, session_id, author_user_id, author_email, name, message
       FROM records.messages WHERE session_id = ANY($1::uuid[]) ORDER BY seq`,
      [sessionIds],
    );
    return rows;
  };

  it('stores every item, answers each stored message in the order of the items, with the fields one append answers', async () => {
    const [s1, s2] = [await h.session(), await h.session({ scope: null })];
    const pat = author();
    const olga = { userId: h.users.owner.id, email: h.users.owner.email, name: ' Owner Olga ' };
    const items: Item[] = [
      { sessionId: s1, ...pat, message: 'first in s1' },
      { sessionId: s2, ...olga, message: '  first in s2  ' },
      { sessionId: s1, ...olga, message: 'second in s1' },
      { sessionId: s2, ...pat, message: 'second in s2' },
    ];
    const answered = await appendMessages(items);
    expect(answered.map(({ message, name }) => ({ message, name }))).toEqual([
      { message: 'first in s1', name: pat.name },
      { message: 'first in s2', name: 'Owner Olga' },
      { message: 'second in s1', name: 'Owner Olga' },
      { message: 'second in s2', name: pat.name },
    ]);
    expect(new Set(answered.map((m) => m.message_id)).size).toBe(items.length);
    expectNoIdentities(h, answered);
    // One statement, one commit: one time for the call, the server's.
    expect(new Set(answered.map((m) => m.time)).size).toBe(1);
    expect(Math.abs(Date.parse(answered[0]!.time) - Date.now())).toBeLessThan(60_000);

    // Each session lists its own, in the items' order, exactly as answered.
    expect(await listed(s1)).toEqual([answered[0], answered[2]]);
    expect(await listed(s2)).toEqual([answered[1], answered[3]]);
    // The author each item named is the one stored (the export and account deletion read it).
    expect(await storedRows([s1, s2])).toEqual(
      items.map((item, i) => ({
        id: answered[i]!.message_id,
        session_id: item.sessionId,
        author_user_id: item.userId,
        author_email: item.email,
        name: item.name.trim(),
        message: item.message.trim(),
      })),
    );
  });

  it(`a full call of ${MESSAGES_PER_APPEND} keeps the items' order, before and after single appends`, async () => {
    const sessionId = await h.session();
    const before = await appendMessage(sessionId, 'before the group');
    const items = Array.from({ length: MESSAGES_PER_APPEND }, (_, i) => ({
      sessionId,
      ...author(),
      message: `grouped ${i}`,
    }));
    const answered = await appendMessages(items);
    expect(answered.map((m) => m.message)).toEqual(items.map((item) => item.message));
    const after = await appendMessage(sessionId, 'after the group');
    const stored = await storedRows([sessionId]);
    expect(stored.map((row) => row.id)).toEqual([
      before.message_id,
      ...answered.map((m) => m.message_id),
      after.message_id,
    ]);
    const page = await h
      .internal(internalRoutes.recordsListMessages, { sessionId, limit: MESSAGES_PER_APPEND + 2 })
      .expect(200);
    expect(page.body.res).toEqual({ messages: [before, ...answered, after], hasMore: false });
  });

  it('concurrent calls are all kept, each once, each call in its own order', async () => {
    const sessionId = await h.session();
    const calls = Array.from({ length: 8 }, (_, c) =>
      Array.from({ length: 10 }, (_, i) => ({ sessionId, ...author(), message: `call ${c} item ${i}` })),
    );
    const answers = await Promise.all(calls.map(appendMessages));
    const stored = (await storedRows([sessionId])).map((row) => row.message);
    expect(stored).toHaveLength(80);
    for (const [c, answer] of answers.entries()) {
      expect(answer.map((m) => m.message)).toEqual(calls[c]!.map((item) => item.message));
      const positions = answer.map((m) => stored.indexOf(m.message));
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  describe('one bad item refuses the call with a 400 that says which, and nothing is stored', () => {
    const good = (sessionId: string) => ({ sessionId, ...author(), message: 'fine' });
    const cases = [
      ['a blank message', { message: ' ' }, 'This field must not be empty', 'items.2.message'],
      ['a blank name', { name: '' }, 'This field must not be empty', 'items.2.name'],
      ['a bad e-mail', { email: 'nope' }, 'items.2.email: is not a valid e-mail address', 'items.2.email'],
      ['a bad session id', { sessionId: 'x' }, 'items.2.sessionId: is not a valid id', 'items.2.sessionId'],
      [
        'a message too long',
        { message: 'x'.repeat(2001) },
        expect.stringMatching(/^items\.2\.message: /),
        'items.2.message',
      ],
    ] as const;

    it.each(cases)('%s', async (_label, bad, message, path) => {
      const sessionId = await h.session();
      const items = [good(sessionId), good(sessionId), { ...good(sessionId), ...bad }, good(sessionId)];
      const res = await h.internal(internalRoutes.recordsAppendMessages, { items }).expect(400);
      expect(res.body).toEqual({
        status: 'ERROR',
        res: {
          message,
          code: 'VALIDATION',
          issues: expect.arrayContaining([expect.objectContaining({ path })]),
        },
      });
      expect(await storedRows([sessionId])).toEqual([]);
    });

    it.each([
      ['no items', [], 'items: must hold at least one message'],
      ['items that are not a list', 'hi', 'items: must be a list of messages'],
      [
        `more than ${MESSAGES_PER_APPEND} items`,
        null,
        `items: must hold at most ${MESSAGES_PER_APPEND} messages`,
      ],
    ] as const)('%s', async (_label, given, message) => {
      const sessionId = await h.session();
      const items = given ?? Array.from({ length: MESSAGES_PER_APPEND + 1 }, () => good(sessionId));
      const res = await h.internal(internalRoutes.recordsAppendMessages, { items }).expect(400);
      expect(res.body.res).toEqual({ message, code: 'VALIDATION', issues: expect.any(Array) });
      expect(await storedRows([sessionId])).toEqual([]);
    });

    it("generated bad input (kit's invalidPayloadOf of the route's own schema): each object a 4xx with a message, nothing stored", async () => {
      await expectGeneratedBadInputRefused(internalRoutes.recordsAppendMessages);
    });
  });
});

describe('realtime reads the newest page of several sessions in one call (recordsLatestMessages)', () => {
  type Page = { sessionId: string; messages: MessageRecord[]; hasMore: boolean };
  const latest = async (sessionIds: string[], limit?: number) => {
    const res = await h.internal(internalRoutes.recordsLatestMessages, { sessionIds, limit }).expect(200);
    expectNoIdentities(h, res.body);
    return res.body.res.pages as Page[];
  };
  /** What recordsListMessages answers for the session's newest page. */
  const listedPage = async (sessionId: string, limit?: number) =>
    (await h.internal(internalRoutes.recordsListMessages, { sessionId, limit }).expect(200)).body.res as {
      messages: MessageRecord[];
      hasMore: boolean;
    };
  const storeMany = async (sessionId: string, count: number, label: string) => {
    const items = Array.from({ length: count }, (_, i) => ({
      sessionId,
      ...author(),
      message: `${label} ${i}`,
    }));
    await h.internal(internalRoutes.recordsAppendMessages, { items }).expect(200);
  };

  it('answers a page per id in the order of the ids, each the page recordsListMessages answers', async () => {
    const [long, exact, justOver, other] = [
      await h.session(),
      await h.session(),
      await h.session(),
      await h.session({ scope: null }),
    ];
    // Interleaved, so each session's rows lie among the others' in the table's order.
    for (let i = 0; i < 7; i++) {
      await appendMessage(long, `long ${i}`);
      if (i < 3) await appendMessage(exact, `exact ${i}`);
      if (i < 4) await appendMessage(justOver, `just over ${i}`);
      if (i < 2) await appendMessage(other, `other ${i}`);
    }
    const unknown = randomUUID();
    const ids = [long, unknown, exact, justOver, long, other];
    const pages = await latest(ids, 3);
    expect(pages.map((page) => page.sessionId)).toEqual(ids);
    for (const [i, sessionId] of ids.entries())
      expect(pages[i]).toEqual({ sessionId, ...(await listedPage(sessionId, 3)) });
    // What the pages are: the newest three, oldest first; hasMore when older ones remain.
    expect(pages.map(({ messages, hasMore }) => [messages.map((m) => m.message), hasMore])).toEqual([
      [['long 4', 'long 5', 'long 6'], true],
      [[], false],
      [['exact 0', 'exact 1', 'exact 2'], false],
      [['just over 1', 'just over 2', 'just over 3'], true],
      [['long 4', 'long 5', 'long 6'], true],
      [['other 0', 'other 1'], false],
    ]);
  });

  it(`without a limit, the live page (${LIVE_MESSAGE_PAGE}), as recordsListMessages' default`, async () => {
    const [over, under] = [await h.session(), await h.session()];
    await storeMany(over, LIVE_MESSAGE_PAGE + 1, 'over');
    await storeMany(under, LIVE_MESSAGE_PAGE, 'under');
    const pages = await latest([under, over]);
    expect(pages).toEqual([
      { sessionId: under, ...(await listedPage(under)) },
      { sessionId: over, ...(await listedPage(over)) },
    ]);
    expect(pages.map(({ messages, hasMore }) => [messages.length, hasMore, messages[0]!.message])).toEqual([
      [LIVE_MESSAGE_PAGE, false, 'under 0'],
      [LIVE_MESSAGE_PAGE, true, 'over 1'],
    ]);
  });

  it(`a full call of ${SESSIONS_PER_LATEST_READ} ids is answered, each id its own page`, async () => {
    const sessionId = await h.session();
    const message = await appendMessage(sessionId, 'the one');
    const ids = Array.from({ length: SESSIONS_PER_LATEST_READ }, (_, i) =>
      i % 2 ? sessionId : randomUUID(),
    );
    const pages = await latest(ids, 1);
    expect(pages).toEqual(
      ids.map((id) => ({ sessionId: id, messages: id === sessionId ? [message] : [], hasMore: false })),
    );
  });

  it('the ids are answered as asked, whatever their case', async () => {
    const sessionId = await h.session();
    const message = await appendMessage(sessionId, 'cased');
    const upper = sessionId.toUpperCase();
    expect(await latest([upper])).toEqual([{ sessionId: upper, messages: [message], hasMore: false }]);
  });

  describe('bad input is a 400 that says what is wrong', () => {
    const sessionId = randomUUID();
    it.each([
      ['no ids', { sessionIds: [] }, 'sessionIds: must hold at least one session id'],
      ['ids that are not a list', { sessionIds: sessionId }, 'sessionIds: must be a list of session ids'],
      ['no ids at all', {}, 'sessionIds: must be a list of session ids'],
      [
        `more than ${SESSIONS_PER_LATEST_READ} ids`,
        { sessionIds: Array.from({ length: SESSIONS_PER_LATEST_READ + 1 }, () => sessionId) },
        `sessionIds: must hold at most ${SESSIONS_PER_LATEST_READ} session ids`,
      ],
      ['a bad id', { sessionIds: [sessionId, 'x'] }, 'sessionIds.1: is not a valid id'],
      ['a limit of 0', { sessionIds: [sessionId], limit: 0 }, 'limit: must be at least 1'],
      ['a limit over 500', { sessionIds: [sessionId], limit: 501 }, 'limit: must be at most 500'],
      ['a limit not whole', { sessionIds: [sessionId], limit: 1.5 }, 'limit: must be a whole number'],
      ['a limit as text', { sessionIds: [sessionId], limit: '3' }, 'limit: must be a number'],
    ] as const)('%s', async (_label, input, message) => {
      const res = await h.internal(internalRoutes.recordsLatestMessages, input).expect(400);
      expect(res.body).toEqual({
        status: 'ERROR',
        res: { message, code: 'VALIDATION', issues: expect.any(Array) },
      });
    });

    it("generated bad input (kit's invalidPayloadOf of the route's own schema): each object a 4xx with a message, nothing stored", async () => {
      await expectGeneratedBadInputRefused(internalRoutes.recordsLatestMessages);
    });
  });
});

describe('session and user data deletes', () => {
  it('deleting sessions removes their messages and clicks only; a second call succeeds too', async () => {
    const [a, b, kept] = [await h.session(), await h.session(), await h.session()];
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
    const [gone, kept] = [await h.session(), await h.session()];
    await appendMessage(gone, 'soon gone');
    await appendPixel(gone);
    const keptMessage = await appendMessage(kept, 'stays');
    await h
      .studiesHttp()
      .post('/deleteSession')
      .set(h.as('owner').headers)
      .send({ sessionId: gone })
      .expect(200);
    expect(await listed(gone)).toEqual([]);
    const pixels = await h
      .http()
      .get('/getPixels')
      .set(h.as('owner').headers)
      .query({ sessionId: gone })
      .expect(404);
    expect(pixels.body.res.message).toBe('No such session.');
    expect(await listed(kept)).toEqual([keptMessage]);
  });

  it('deleting a user removes what they wrote in every session, and nothing of anyone else', async () => {
    const leaving = h.person('participant', { name: 'Leaving Lee' });
    const [s1, s2] = [await h.session({ scope: null }), await h.session({ scope: null })];
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
      internalRoutes.recordsAppendMessages,
      { items: [{ sessionId, name: 'N', message: 'm' }] },
      'This field must not be empty',
    ],
    [
      'append with a blank name',
      internalRoutes.recordsAppendMessages,
      { items: [{ sessionId, userId, email: 'n@uni.test', name: ' ', message: 'm' }] },
      'This field must not be empty',
    ],
    [
      'append with a blank message',
      internalRoutes.recordsAppendMessages,
      { items: [{ sessionId, userId, email: 'n@uni.test', name: 'N', message: '' }] },
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
