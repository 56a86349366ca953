import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { APP_REQUEST_HEADER } from '@uis/proto';
import { COOKIE_WITHOUT_APP_HEADER_TEXT, InternalClient, Revocations, runInRequest } from '../src';
import { SERVICE, startTestService, testInternalRoute, testRequestIdRoute, tokenFor } from './test-service';

const jwtClaims = (token: string) => jwt.decode(token) as { sid: string };
const APP_HEADER = { [APP_REQUEST_HEADER.name]: APP_REQUEST_HEADER.value };

describe('kit HTTP plumbing', () => {
  let app: INestApplication;
  let logs: string[];
  let readiness: Awaited<ReturnType<typeof startTestService>>['readiness'];

  beforeAll(async () => {
    ({ app, logs, readiness } = await startTestService());
  });
  afterAll(() => app.close());

  const http = () => request(app.getHttpServer());
  /** The app listening on a loopback port (once), for clients that need a URL. */
  let listening: Promise<string> | undefined;
  const baseUrl = () =>
    (listening ??= app
      .listen(0, '127.0.0.1')
      .then(async () => (await app.getUrl()).replace('[::1]', '127.0.0.1')));

  it('wraps answers in the SUCCESS envelope', async () => {
    const res = await http().post('/test/echo').send({ name: 'Ada' }).expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { name: 'Ada' } });
  });

  it('answers bad input with a 400 that says what is wrong', async () => {
    const spec = await http().post('/test/echo').send({ name: '' }).expect(400);
    expect(spec.body).toMatchObject({
      status: 'ERROR',
      res: { message: 'Please provide your name.', code: 'VALIDATION', issues: [{ path: 'name' }] },
    });
    const typed = await http().post('/test/echo').send({ name: 'Ada', count: 'many' }).expect(400);
    expect(typed.body.res.message).toMatch(/^count: /);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const res = await http()
      .post('/test/echo')
      .set('content-type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message: 'The request body is not valid JSON.', code: 'VALIDATION' },
    });
  });

  it('answers an oversized body with a 413 envelope', async () => {
    const res = await http()
      .post('/test/echo')
      .send({ name: 'x'.repeat(200_000) })
      .expect(413);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('answers an unknown path with a 404 envelope', async () => {
    const res = await http().get('/nowhere').expect(404);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.res.code).toBe('NOT_FOUND');
  });

  describe('access rules', () => {
    it('refuses a missing, forged or expired token with 401', async () => {
      await http().get('/test/me').expect(401);
      await http().get('/test/me').set('authorization', 'Bearer not-a-jwt').expect(401);
      const forged = jwt.sign({ email: 'x@y.z', type: 'researcher' }, 'c'.repeat(40), {
        subject: 'u',
        issuer: 'uis-auth',
      });
      await http().get('/test/me').set('authorization', `Bearer ${forged}`).expect(401);
      const expired = tokenFor({}, -10);
      const res = await http().get('/test/me').set('authorization', `Bearer ${expired}`).expect(401);
      expect(res.body.res.code).toBe('UNAUTHENTICATED');
    });

    it('accepts the token from the bearer header or the accessToken cookie', async () => {
      const token = tokenFor();
      const byHeader = await http().get('/test/me').set('authorization', `Bearer ${token}`).expect(200);
      expect(byHeader.body.res).toEqual({ email: 'ada@lab.test' });
      await http().get('/test/me').set('cookie', `accessToken=${token}`).expect(200);
    });

    it('accepts a query token only on routes that declare it', async () => {
      const researcher = tokenFor({ type: 'researcher' });
      await http().get(`/test/me?accessToken=${researcher}`).expect(401);
      await http().get(`/test/lab?accessToken=${researcher}`).expect(200);
    });

    it('takes the cookie alone for reading only: a change by cookie needs the web app header (a cross-site form cannot send it)', async () => {
      const token = tokenFor();
      const cookie = `accessToken=${token}`;
      await http().get('/test/me').set('cookie', cookie).expect(200);
      const byCookie = await http().post('/test/touch').set('cookie', cookie).send({}).expect(401);
      expect(byCookie.body.res).toEqual({
        message: COOKIE_WITHOUT_APP_HEADER_TEXT,
        code: 'UNAUTHENTICATED',
      });
      // Another value of the header is not the app's (a header another site could guess is still a preflight).
      await http()
        .post('/test/touch')
        .set('cookie', cookie)
        .set('x-requested-with', 'XMLHttpRequest')
        .send({})
        .expect(401);
      await http().post('/test/touch').set('cookie', cookie).set(APP_HEADER).send({}).expect(200);
      // Bearer callers are unchanged: no header needed.
      await http().post('/test/touch').set('authorization', `Bearer ${token}`).send({}).expect(200);
    });

    it('applies the rule before any body is read: an upload (multipart) by cookie alone is refused first', async () => {
      const cookie = `accessToken=${tokenFor()}`;
      const form = (req: ReturnType<ReturnType<typeof http>['post']>) =>
        req.set('content-type', 'multipart/form-data; boundary=x').send('--x\r\n\r\n--x--');
      const refused = await form(http().post('/test/touch').set('cookie', cookie)).expect(401);
      expect(refused.body.res.message).toBe(COOKIE_WITHOUT_APP_HEADER_TEXT);
      // With the header the caller is signed in, and the route reads its form (as uploadVideo does).
      await form(http().post('/test/touch').set('cookie', cookie).set(APP_HEADER)).expect(200);
    });

    it('refuses the tokens of a revoked login at once, and those of a revoked user issued before it', async () => {
      const revocations = app.get(Revocations);
      const first = tokenFor({ loginId: randomUUID() });
      const second = tokenFor({ loginId: randomUUID() });
      await revocations.revoke({ kind: 'login', id: jwtClaims(first).sid });
      const ended = await http().get('/test/me').set('authorization', `Bearer ${first}`).expect(401);
      expect(ended.body.res.message).toBe('Your session has ended. Please sign in again.');
      await http().get('/test/me').set('authorization', `Bearer ${second}`).expect(200);

      const user = { id: randomUUID(), loginId: randomUUID() };
      const before = tokenFor(user);
      await revocations.revoke({ kind: 'user', id: user.id, issuedBefore: Date.now() });
      await http().get('/test/me').set('authorization', `Bearer ${before}`).expect(401);
      // A sign-in after it (a failed account deletion is retried that way) works again.
      await http()
        .get('/test/me')
        .set('authorization', `Bearer ${tokenFor(user)}`)
        .expect(200);
    });

    it('refuses a participant on a researcher route with 403', async () => {
      const res = await http().get('/test/lab').set('authorization', `Bearer ${tokenFor()}`).expect(403);
      expect(res.body.res.message).toBe('Only researchers can do this.');
    });
  });

  describe('bodies', () => {
    it.each([
      ['a form (what another site can post)', 'application/x-www-form-urlencoded', 'name=Ada'],
      ['plain text', 'text/plain', '{"name":"Ada"}'],
      ['multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
    ])('refuses %s with a 415 saying to send JSON', async (_, type, body) => {
      const res = await http().post('/test/echo').set('content-type', type).send(body).expect(415);
      expect(res.body.res).toEqual({
        message: 'Send the request body as JSON (Content-Type: application/json).',
        code: 'UNSUPPORTED_MEDIA',
      });
    });

    it('takes a POST without a body as empty input', async () => {
      const res = await http().post('/test/touch').set('authorization', `Bearer ${tokenFor()}`).expect(200);
      expect(res.body.res).toEqual({ message: 'touched' });
    });
  });

  it("answers what Node's parser refuses (an address past 16 KB) with the envelope, not a bare status", async () => {
    const res = await fetch(`${await baseUrl()}/test/me?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({
      status: 'ERROR',
      res: {
        message:
          'The request is too large: its address and headers may take 16 KB. Send large input in a POST body.',
        code: 'PAYLOAD_TOO_LARGE',
      },
    });
  });

  it('serves Prometheus metrics at /metrics: latency by route pattern, labelled with the service', async () => {
    await http().get('/test/me').set('authorization', `Bearer ${tokenFor()}`).expect(200);
    await http().get('/test/me').expect(401);
    const res = await http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const status of ['200', '401']) {
      expect(res.text).toMatch(
        new RegExp(
          `http_request_duration_seconds_count\\{service="auth",method="GET",route="/test/me",status="${status}"\\} \\d+`,
        ),
      );
    }
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('marks every API answer not to be cached (they hold tokens and personal data)', async () => {
    const res = await http().post('/test/echo').send({ name: 'Ada' }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a database that cannot answer now with a 503 that says to retry, not a 500', async () => {
    const res = await http().get('/test/database-down').expect(503);
    expect(res.body.res).toEqual({
      message: 'The database is unavailable right now. Please try again in a moment.',
      code: 'UNAVAILABLE',
    });
  });

  it('hides unexpected errors behind an error id that is in the log', async () => {
    const res = await http().get('/test/boom').expect(500);
    expect(res.body.status).toBe('ERROR');
    const { errorId, message } = res.body.res as { errorId: string; message: string };
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(message).toContain(errorId);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|at .*\.ts|stack/);
    const line = logs.find((l) => l.includes(errorId));
    expect(line).toBeDefined();
    expect(line).toContain('hunter2'); // the full error stays in the server log
  });

  it('keeps secrets out of request logs', async () => {
    const token = tokenFor();
    await http().get('/test/me?token=abc123secret').set('authorization', `Bearer ${token}`).expect(200);
    const line = logs.find((l) => l.includes('/test/me?token='));
    expect(line).toContain('[Redacted]');
    expect(logs.join('\n')).not.toContain('abc123secret');
    expect(logs.join('\n')).not.toContain(token);
  });

  it('echoes the gateway request id', async () => {
    const res = await http().get('/health').set('x-request-id', 'req-42').expect(200);
    expect(res.headers['x-request-id']).toBe('req-42');
  });

  it('answers /health, and /ready with 503 while a dependency fails', async () => {
    const health = await http().get('/health').expect(200);
    expect(health.body.res.service).toBe('auth');
    await http().get('/ready').expect(200);
    let up = false;
    readiness.add('flaky', () => (up ? Promise.resolve() : Promise.reject(new Error('down'))));
    const notReady = await http().get('/ready').expect(503);
    expect(notReady.body.res.message).toBe('Not ready: flaky: down');
    up = true;
    await http().get('/ready').expect(200);
  });

  describe('internal endpoints', () => {
    it('refuse callers without the service token', async () => {
      await http().post('/internal/auth/ping').send({ value: 2 }).expect(403);
      await http().post('/internal/auth/ping').set('x-service-token', 'wrong').send({ value: 2 }).expect(403);
      await http()
        .post('/internal/auth/ping')
        .set('authorization', `Bearer ${tokenFor({ type: 'researcher' })}`)
        .send({ value: 2 })
        .expect(403);
    });

    it('answer the internal client, typed and validated on both ends', async () => {
      const url = await baseUrl();
      const client = new InternalClient({
        serviceToken: SERVICE,
        urlOf: () => url.replace('[::1]', '127.0.0.1'),
      });
      await expect(client.call(testInternalRoute, { value: 21 })).resolves.toEqual({ doubled: 42 });
      // The called service's refusal keeps its meaning: a 400 stays a 400, a 404 a 404.
      await expect(client.call(testInternalRoute, { value: 'x' as unknown as number })).rejects.toMatchObject(
        { httpStatus: 400, code: 'VALIDATION', message: expect.stringContaining('value') },
      );
      await expect(client.call(testRequestIdRoute, { value: 0 })).rejects.toMatchObject({
        httpStatus: 404,
        code: 'NOT_FOUND',
        message: 'Nothing has the value 0.',
      });
      // The request being served goes along, so the called service logs under the same id.
      await expect(
        runInRequest('req-77', () => client.call(testRequestIdRoute, { value: 1 })),
      ).resolves.toEqual({
        requestId: 'req-77',
      });
      expect(logs.some((line) => line.includes('"requestId":"req-77"'))).toBe(true);
      const stranger = new InternalClient({ serviceToken: 'nope', urlOf: () => url });
      await expect(stranger.call(testInternalRoute, { value: 1 })).rejects.toMatchObject({ httpStatus: 503 });
      const nobody = new InternalClient({ serviceToken: SERVICE, urlOf: () => 'http://127.0.0.1:1' });
      await expect(nobody.call(testInternalRoute, { value: 1 })).rejects.toMatchObject({ httpStatus: 503 });
    });
  });
});
