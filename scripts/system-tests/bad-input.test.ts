import fs from 'node:fs';
import querystring from 'node:querystring';
import fc from 'fast-check';
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { TINY_MP4, invalidPayloadOf } from '@uis/kit/testing';
import {
  CLIENT_EVENT_NAMES,
  REALTIME_PATH,
  clientEventSchemas,
  routeList,
  type RouteListEntry,
} from '@uis/proto';
import { signUp, startComposedStack, type ComposedStack, type SignedUp } from './support/composed-stack';

/**
 * Generated bad input (fast-check, from proto's own schemas) for every REST route and every socket
 * event, against the composed services: each payload the route's schema refuses gets a clear 4xx
 * (never a 5xx), the database is unchanged after each route's batch, and the service stays up.
 * FUZZ_SEED replays a run; the seed is printed when a check fails.
 */

const PAYLOADS_PER_ROUTE = 200;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Batches of candidates drawn at most, per route or event, to find its refused payloads. */
const MAX_BATCHES = 40;
const MP4 = fs.readFileSync(TINY_MP4);
const SCHEMAS = ['auth', 'studies', 'content', 'records'];

/** The payload as the server receives it: JSON for a body, strings (and lists of them) for a query. */
function asSent(route: RouteListEntry, payload: unknown): unknown {
  if (route.method === 'POST' && !route.multipartFile)
    return JSON.parse(JSON.stringify(payload ?? null)) as unknown;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return {};
  return querystring.parse(new URLSearchParams(flatten(payload as Record<string, unknown>)).toString());
}

/**
 * The first `count` payloads `schema` refuses that `keep` takes too, drawn in batches from seeds
 * SEED, SEED + 1, ... (so FUZZ_SEED still replays a run): how many of one batch are kept varies
 * with the seed, and for a route of optional text only a few of every hundred are (a field too
 * long). Answers fewer only where no batch up to the last gave enough.
 */
function refusedPayloads(
  schema: Parameters<typeof invalidPayloadOf>[0],
  keep: (payload: unknown) => boolean,
  count: number,
): unknown[] {
  const kept: unknown[] = [];
  for (let batch = 0; batch < MAX_BATCHES && kept.length < count; batch++) {
    const candidates = fc.sample(invalidPayloadOf(schema), { numRuns: 2 * count, seed: SEED + batch });
    kept.push(...candidates.filter(keep));
  }
  return kept.slice(0, count);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const preview = (payload: unknown) => (JSON.stringify(payload) ?? String(payload)).slice(0, 300);

/** Query and form values are text: an object or list field becomes its JSON. */
const flatten = (payload: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(payload)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, typeof value === 'string' ? value : (JSON.stringify(value) ?? '')]),
  );

describe('generated bad input', () => {
  let stack: ComposedStack;
  let db: Client;
  let owner: SignedUp;
  let participant: SignedUp;
  let sessionId: string;

  /** A fingerprint of every row of every service's tables. */
  const snapshot = async (): Promise<Record<string, string>> => {
    const { rows } = await db.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
      [SCHEMAS],
    );
    const fingerprint: Record<string, string> = {};
    for (const { table_schema: schema, table_name: table } of rows) {
      const name = `${schema}.${table}`;
      const { rows: sums } = await db.query<{ sum: string | null }>(
        `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS sum FROM "${schema}"."${table}" t`,
      );
      fingerprint[name] = sums[0]?.sum ?? 'empty';
    }
    return fingerprint;
  };

  beforeAll(async () => {
    stack = await startComposedStack('bad_input');
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    owner = await signUp(stack, 'owner@fuzz.test', 'Owner', 'researcher');
    participant = await signUp(stack, 'pat@fuzz.test', 'Pat');
    const { group } = await stack.api.ok('createGroup', {}, owner.token);
    ({
      session: { session_id: sessionId },
    } = await stack.api.ok('createSession', { groupId: group.group_id }, owner.token));
    await stack.api.ok(
      'editSessionInfo',
      { sessionId, scope: [participant.user.email], state: 'live' },
      owner.token,
    );
    await stack.api.ok('addAction', { sessionId }, owner.token);
    await stack.api.ok('addPrompt', { sessionId, time: '00:00:05' }, owner.token);
    await stack.api.ok('addMessage', { sessionId, message: 'hello' }, participant.token);
    await stack.api.upload('uploadVideo', { sessionId }, { bytes: MP4, name: 'clip.mp4' }, owner.token);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await stack?.close();
  });

  /**
   * A GET's input arrives as query text, which loses shapes: a route whose fields are all optional
   * text (or that has none) takes any query. Those answer the generated payloads too (no 5xx,
   * nothing changed), but none can be refused; the last test names them.
   */
  const acceptsAnyQuery: string[] = [];

  it.each(routeList.map((route) => [route.name, route] as const))(
    '%s: 200 payloads its schema refuses, each a 4xx, nothing changed',
    async (name, route) => {
      const before = await snapshot();
      const refusesAsSent = (payload: unknown) => !route.request.safeParse(asSent(route, payload)).success;
      let payloads = refusedPayloads(route.request, refusesAsSent, PAYLOADS_PER_ROUTE);
      const refusable = payloads.length > 0;
      if (!refusable) {
        acceptsAnyQuery.push(name);
        payloads = refusedPayloads(route.request, () => true, PAYLOADS_PER_ROUTE);
      }
      expect(payloads).toHaveLength(PAYLOADS_PER_ROUTE);
      const token = route.access === 'public' ? null : owner.token;
      const wrong: { payload: string; status: number; message?: string }[] = [];
      for (const payload of payloads) {
        const fields = flatten(isRecord(payload) ? payload : {});
        const answer = route.multipartFile
          ? await stack.api.upload(name, fields, { bytes: MP4, name: 'x.mp4' }, token)
          : route.method === 'POST'
            ? await sendRawJson(route.path, payload, token)
            : await stack.api.call(name, fields, token);
        const clear = refusable
          ? answer.status >= 400 && answer.status < 500 && typeof answer.error?.message === 'string'
          : answer.status < 500;
        if (!clear)
          wrong.push({ payload: preview(payload), status: answer.status, message: answer.error?.message });
      }
      // The seed replays the run (FUZZ_SEED); the first payloads answered wrongly say what to fix.
      expect({ seed: SEED, wrong: wrong.slice(0, 5) }).toEqual({ seed: SEED, wrong: [] });
      expect(await snapshot()).toEqual(before);
      await stack.http().get('/ready').expect(200);
    },
    120_000,
  );

  it('names the routes that take any query: reads with nothing to refuse', () => {
    expect(acceptsAnyQuery.sort()).toEqual(['getAllParticipants', 'getSignInProviders', 'getUserFromToken']);
  });

  /** A POST whose body is exactly `payload` as JSON (also a bare string, number or list). */
  async function sendRawJson(target: string, payload: unknown, token: string | null) {
    const req = stack
      .http()
      .post(target)
      .set('content-type', 'application/json')
      .set(token ? { authorization: `Bearer ${token}` } : {});
    const res = await req.send(JSON.stringify(payload ?? null));
    return { status: res.status, error: (res.body as { res?: { message?: string } }).res };
  }

  describe('socket events', () => {
    let socket: Socket;
    beforeAll(async () => {
      socket = io(stack.env.PUBLIC_URL, {
        path: REALTIME_PATH,
        transports: ['websocket'],
        auth: { token: participant.token },
        reconnection: false,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const joined = (await socket.timeout(5000).emitWithAck('initMessage', { sessionId })) as {
        status: string;
      };
      expect(joined.status).toBe('SUCCESS');
    });
    afterAll(() => socket?.close());

    it.each(CLIENT_EVENT_NAMES.map((event) => [event]))(
      '%s: 200 payloads its schema refuses, each an error acknowledgement with a code, nothing changed',
      async (event) => {
        const before = await snapshot();
        const schema = clientEventSchemas[event];
        // As sent: JSON, within realtime's frame limit (a bigger frame closes the socket: covered below).
        const sendable = (payload: unknown) => {
          const json = JSON.stringify(payload ?? null);
          return json.length < 60_000 && !schema.safeParse(JSON.parse(json)).success;
        };
        const payloads = refusedPayloads(schema, sendable, PAYLOADS_PER_ROUTE);
        expect(payloads).toHaveLength(PAYLOADS_PER_ROUTE);
        const wrong: { payload: string; answer: unknown }[] = [];
        for (const payload of payloads) {
          const answer = (await socket.timeout(5000).emitWithAck(event, payload)) as {
            status: string;
            res: { message?: unknown; code?: unknown };
          };
          const clear =
            answer.status === 'ERROR' &&
            typeof answer.res.message === 'string' &&
            typeof answer.res.code === 'string';
          if (!clear) wrong.push({ payload: preview(payload), answer });
        }
        expect({ seed: SEED, wrong: wrong.slice(0, 5) }).toEqual({ seed: SEED, wrong: [] });
        expect(await snapshot()).toEqual(before);
      },
      60_000,
    );

    it('survives emits without a callback, with several arguments, and a frame too big (that socket only)', async () => {
      for (const event of CLIENT_EVENT_NAMES) {
        socket.emit(event, '\u0000'.repeat(10));
        socket.emit(event, { sessionId }, { second: true }, 3);
      }
      const big = io(stack.env.PUBLIC_URL, {
        path: REALTIME_PATH,
        transports: ['websocket'],
        auth: { token: participant.token },
        reconnection: false,
      });
      await new Promise<void>((resolve) => big.once('connect', () => resolve()));
      const closed = new Promise<string>((resolve) => big.once('disconnect', resolve));
      big.emit('message', { sessionId, message: 'x'.repeat(200_000) });
      expect(await closed).toBe('transport close');
      const still = (await socket
        .timeout(5000)
        .emitWithAck('message', { sessionId, message: 'still here' })) as {
        status: string;
      };
      expect(still.status).toBe('SUCCESS');
      await stack.http().get('/ready').expect(200);
    });
  });
});
