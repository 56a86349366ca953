import {
  SessionWriteLimiter,
  WRITE_WINDOW_SECONDS,
  createLogger,
  liveWriteLimit,
  loadConfig,
  tooManyWritesText,
} from '@uis/kit';
import { TEST_REDIS_URL, testSecrets } from '@uis/kit/testing';
import { DEVICE_CHECK_WINDOW_MINUTES, DEVICE_CHECKS_PER_WINDOW, type RequestOf } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { recordsEnv } from '../src';
import { startRecords, type Caller, type RecordsHarness } from './support/records-harness';

/** Below the default, so a test stays quick; the default is checked on its own. */
const LIVE_WRITE_LIMIT = 5;

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('write_limits', { LIVE_WRITE_LIMIT: String(LIVE_WRITE_LIMIT) });
});
afterAll(() => h.close());

const addMessage = (caller: Caller, sessionId: string, message = 'hi') =>
  h.http().post('/addMessage').set(h.as(caller).headers).send({ sessionId, message });
const addPixel = (sessionId: string) =>
  h.http().post('/addPixel').set(h.as('owner').headers).send({ sessionId, color: '#fff', x: 0.5, y: 0.5 });
const count = async (route: '/getMessages' | '/getPixels', sessionId: string) => {
  const res = await h.http().get(route).set(h.as('owner').headers).query({ sessionId }).expect(200);
  return (res.body.res.messages ?? res.body.res.pixels).length as number;
};

/** The refusal of a write past a limit: a 429 RATE_LIMITED whose message is one of `texts`. */
const expectRefused = (
  res: { status: number; body: { res: { code: string; message: string } } },
  texts: string[],
) => {
  expect(res.status).toBe(429);
  expect(res.body.res.code).toBe('RATE_LIMITED');
  expect(texts).toContain(res.body.res.message);
};
const writeTexts = Array.from({ length: WRITE_WINDOW_SECONDS }, (_, i) => tooManyWritesText(i + 1));

describe('REST writes are limited as live writes are', () => {
  it('LIVE_WRITE_LIMIT is read by records with realtime’s default (20)', () => {
    const env = { ...testSecrets(), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    expect(loadConfig(recordsEnv, env).LIVE_WRITE_LIMIT).toBe(20);
    expect(loadConfig(recordsEnv, { ...env, LIVE_WRITE_LIMIT: '7' }).LIVE_WRITE_LIMIT).toBe(7);
  });

  it(`refuses /addMessage past LIVE_WRITE_LIMIT per ${WRITE_WINDOW_SECONDS} s with 429 saying when to retry, storing nothing; nobody else is held back`, async () => {
    const sessionId = await h.session();
    const other = await h.session();
    for (let n = 1; n <= LIVE_WRITE_LIMIT; n += 1) await addMessage('participant', sessionId).expect(200);
    expectRefused(await addMessage('participant', sessionId), writeTexts);
    expectRefused(await addMessage('participant', sessionId), writeTexts);
    expect(await count('/getMessages', sessionId)).toBe(LIVE_WRITE_LIMIT);
    // Another person in that session, and the same person in another session, count apart.
    await addMessage('owner', sessionId).expect(200);
    await addMessage('participant', other).expect(200);
  });

  it('counts /addPixel with /addMessage, as live clicks and messages count together', async () => {
    const sessionId = await h.session();
    for (let n = 1; n <= LIVE_WRITE_LIMIT - 2; n += 1) await addMessage('owner', sessionId).expect(200);
    await addPixel(sessionId).expect(200);
    await addPixel(sessionId).expect(200);
    expectRefused(await addPixel(sessionId), writeTexts);
    expectRefused(await addMessage('owner', sessionId), writeTexts);
    expect(await count('/getPixels', sessionId)).toBe(2);
  });

  it('admits writes again once the window has passed', async () => {
    const sessionId = await h.session();
    for (let n = 1; n <= LIVE_WRITE_LIMIT; n += 1) await addMessage('participant', sessionId).expect(200);
    const refused = await addMessage('participant', sessionId).expect(429);
    const seconds = Number(/wait (\d+) second/.exec(refused.body.res.message as string)![1]);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    await addMessage('participant', sessionId).expect(200);
  }, 20_000);

  it('leaves realtime’s internal appends to realtime’s own limit', async () => {
    const sessionId = await h.session();
    const author = h.author('participant');
    for (let n = 0; n < LIVE_WRITE_LIMIT * 2; n += 1) {
      await h.appendMessage(sessionId, { message: `${n}` }, author);
      await h.appendPixel(sessionId, { x: 0, y: 0, color: '#fff' }, author);
    }
    expect(await count('/getMessages', sessionId)).toBe(LIVE_WRITE_LIMIT * 2);
  });
});

describe('device checks are limited per person and session', () => {
  const check: Omit<RequestOf<'saveDeviceCheck'>, 'sessionId'> = {
    browserName: 'Firefox',
    browserVersion: '128.0',
    camera: 'pass',
    microphone: 'pass',
    speakers: 'pass',
    stun: 'pass',
    turn: 'fail',
    rtt: 'pass',
    rttMs: 40,
  };
  const save = (sessionId: string, caller: Caller = 'participant') =>
    h
      .http()
      .post('/saveDeviceCheck')
      .set(h.as(caller).headers)
      .send({ sessionId, ...check });

  it(`stores ${DEVICE_CHECKS_PER_WINDOW} in ${DEVICE_CHECK_WINDOW_MINUTES} minutes, then refuses with 429 saying when to retry`, async () => {
    const sessionId = await h.session();
    for (let n = 1; n <= DEVICE_CHECKS_PER_WINDOW; n += 1) await save(sessionId).expect(200);
    const texts = Array.from(
      { length: DEVICE_CHECK_WINDOW_MINUTES },
      (_, i) =>
        `You ran the device check ${DEVICE_CHECKS_PER_WINDOW} times in ${DEVICE_CHECK_WINDOW_MINUTES} minutes: wait ${i + 1} minute${i === 0 ? '' : 's'} before the next.`,
    );
    expectRefused(await save(sessionId), texts);
    const listed = await h
      .http()
      .get('/getDeviceChecks')
      .set(h.as('owner').headers)
      .query({ sessionId })
      .expect(200);
    expect(listed.body.res.checks).toHaveLength(DEVICE_CHECKS_PER_WINDOW);
    // Not the live writes' budget, nor anyone else's.
    await addMessage('participant', sessionId).expect(200);
    await save(sessionId, 'owner').expect(200);
    await save(await h.session()).expect(200);
  });
});

describe('the shared limiter', () => {
  const logger = createLogger({ service: 'records', level: 'silent' });

  it('counts together across processes sharing Redis (records’ replicas)', async () => {
    const shared = { redisUrl: TEST_REDIS_URL, keyPrefix: `uis:records:test:${randomUUID()}` };
    const [a, b] = [0, 1].map(() => new SessionWriteLimiter(liveWriteLimit(3), logger, shared));
    try {
      await Promise.all([a!.connected(), b!.connected()]);
      const [userId, sessionId] = [randomUUID(), randomUUID()];
      await a!.consume(userId, sessionId);
      await b!.consume(userId, sessionId);
      await a!.consume(userId, sessionId);
      await expect(b!.consume(userId, sessionId)).rejects.toMatchObject({ httpStatus: 429 });
      await b!.consume(randomUUID(), sessionId);
    } finally {
      a!.close();
      b!.close();
    }
  });
});
