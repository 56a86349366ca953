import { RECORD_LIST_PAGE_ROWS, type RouteName } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { startRecords, type Caller, type RecordsHarness } from './support/records-harness';

/**
 * Every list of a session's records answers a page at a time (proto's RECORD_LIST_PAGING): a small
 * session in one answer as before, a large one in pages of RECORD_LIST_PAGE_ROWS chained by `after`.
 */
let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('list_pages');
});
afterAll(async () => {
  await h.close();
});

/** Each list route: its table, its answer's list, and the columns a row of it needs. */
const LISTS = {
  getMessages: { table: 'messages', list: 'messages', id: 'message_id', columns: { message: `'m' || n` } },
  getPixels: {
    table: 'pixels',
    list: 'pixels',
    id: 'pixel_id',
    columns: { color: `'#fff'`, x: '0.5', y: '0.5' },
  },
  getPlayback: {
    table: 'playback',
    list: 'playback',
    id: 'playback_id',
    columns: { event: `'seek'`, video_time: 'n', playback_rate: '1' },
  },
  getDeviceChecks: {
    table: 'device_checks',
    list: 'checks',
    id: 'device_check_id',
    columns: Object.fromEntries(
      [
        ['browser_name', `'Chrome'`],
        ['browser_version', `'1'`],
        ...['camera', 'microphone', 'speakers', 'stun', 'turn', 'rtt'].map((item) => [item, `'pass'`]),
      ].map(([column, value]) => [column!, value!]),
    ),
  },
  getExposureEvents: {
    table: 'exposure_events',
    list: 'events',
    id: 'exposure_id',
    // The id is the client's event id: no default.
    columns: { id: 'gen_random_uuid()', kind: `'mute'`, video_time: 'n' },
  },
  getSessionWithdrawals: {
    table: 'withdrawals',
    list: 'withdrawals',
    id: 'withdrawal_id',
    columns: { messages: 'n', clicks: '0' },
  },
} as const satisfies Partial<
  Record<RouteName, { table: string; list: string; id: string; columns: Record<string, string> }>
>;
type ListRoute = keyof typeof LISTS;

/** `rows` records of the route's kind in the session, written as appends write them; their ids in order. */
async function seed(route: ListRoute, sessionId: string, rows: number): Promise<string[]> {
  const { table, columns } = LISTS[route];
  const author = h.author('participant');
  const names = Object.keys(columns).join(', ');
  const { rows: inserted } = await h.pg.query<{ id: string }>(
    `INSERT INTO records.${table} (session_id, author_user_id, author_email, name, ${names})
     SELECT $1, $2, $3, $4, ${Object.values(columns).join(', ')} FROM generate_series(1, $5::int) AS n ORDER BY n
     RETURNING id`,
    [sessionId, author.userId, author.email, author.name, rows],
  );
  const { rows: ordered } = await h.pg.query<{ id: string }>(
    `SELECT id FROM records.${table} WHERE session_id = $1 ORDER BY seq`,
    [sessionId],
  );
  expect(ordered).toHaveLength(inserted.length);
  return ordered.map((row) => row.id);
}

const get = (route: ListRoute, query: object, caller: Caller = 'owner') =>
  h.http().get(`/${route}`).set(h.as(caller).headers).query(query);

/** One page's ids and cursor. */
async function page(route: ListRoute, query: object, caller: Caller = 'owner') {
  const { list, id } = LISTS[route];
  const res = await get(route, query, caller).expect(200);
  const records = res.body.res[list] as Record<string, string>[];
  return { ids: records.map((record) => record[id]!), next: res.body.res.next as string | null };
}

describe.each(Object.keys(LISTS) as ListRoute[])('%s pages', (route) => {
  it(`answers a large session in pages of ${RECORD_LIST_PAGE_ROWS}, oldest first, chained by after/next`, async () => {
    const sessionId = await h.session();
    const other = await h.session();
    const all = await seed(route, sessionId, 2 * RECORD_LIST_PAGE_ROWS + 1);
    await seed(route, other, 3);

    const first = await page(route, { sessionId });
    expect(first).toEqual({ ids: all.slice(0, RECORD_LIST_PAGE_ROWS), next: all[RECORD_LIST_PAGE_ROWS - 1] });
    const second = await page(route, { sessionId, after: first.next });
    expect(second).toEqual({
      ids: all.slice(RECORD_LIST_PAGE_ROWS, 2 * RECORD_LIST_PAGE_ROWS),
      next: all[2 * RECORD_LIST_PAGE_ROWS - 1],
    });
    const last = await page(route, { sessionId, after: second.next });
    expect(last).toEqual({ ids: all.slice(2 * RECORD_LIST_PAGE_ROWS), next: null });
  });

  it('answers a session of at most a page at once, `next` null (the route’s answer as before paging)', async () => {
    const sessionId = await h.session();
    expect(await page(route, { sessionId })).toEqual({ ids: [], next: null });
    const all = await seed(route, sessionId, RECORD_LIST_PAGE_ROWS);
    expect(await page(route, { sessionId })).toEqual({ ids: all, next: null });
    // After the last record: an empty page.
    expect(await page(route, { sessionId, after: all.at(-1) })).toEqual({ ids: [], next: null });
  });

  it('takes as `after` only a record of this list in this session (404), checking access first', async () => {
    const sessionId = await h.session();
    const other = await h.session();
    await seed(route, sessionId, 2);
    const [elsewhere] = await seed(route, other, 1);
    const otherKind = route === 'getMessages' ? 'getPixels' : 'getMessages';
    const [wrongKind] = await seed(otherKind, sessionId, 1);
    for (const after of [elsewhere, wrongKind, randomUUID()]) {
      const res = await get(route, { sessionId, after }).expect(404);
      expect(res.body.res).toMatchObject({
        code: 'NOT_FOUND',
        message: 'after: no such record in this session (start again from the first page).',
      });
    }
    const bad = await get(route, { sessionId, after: 'zz' }).expect(400);
    expect(bad.body.res.message).toBe('after: is not a valid id');
    await get(route, { sessionId, after: elsewhere }, 'otherResearcher').expect(403);
  });
});

it('pages a participant’s reading of the chat as the owner’s', async () => {
  const sessionId = await h.session();
  const all = await seed('getMessages', sessionId, RECORD_LIST_PAGE_ROWS + 1);
  const first = await page('getMessages', { sessionId }, 'participant');
  expect(first.next).toBe(all[RECORD_LIST_PAGE_ROWS - 1]);
  expect(await page('getMessages', { sessionId, after: first.next }, 'participant')).toEqual({
    ids: [all.at(-1)],
    next: null,
  });
});
