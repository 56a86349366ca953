import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { InternalClient } from '../src';
import { SERVICE, startTestService, testInternalRoute, tokenFor } from './test-service';

describe('kit HTTP plumbing', () => {
  let app: INestApplication;
  let logs: string[];
  let readiness: Awaited<ReturnType<typeof startTestService>>['readiness'];

  beforeAll(async () => {
    ({ app, logs, readiness } = await startTestService());
  });
  afterAll(() => app.close());

  const http = () => request(app.getHttpServer());

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

    it('refuses a participant on a researcher route with 403', async () => {
      const res = await http().get('/test/lab').set('authorization', `Bearer ${tokenFor()}`).expect(403);
      expect(res.body.res.message).toBe('Only researchers can do this.');
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
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      const client = new InternalClient({
        serviceToken: SERVICE,
        urlOf: () => url.replace('[::1]', '127.0.0.1'),
      });
      await expect(client.call(testInternalRoute, { value: 21 })).resolves.toEqual({ doubled: 42 });
      await expect(client.call(testInternalRoute, { value: 'x' as unknown as number })).rejects.toMatchObject(
        {
          httpStatus: 503,
          message: expect.stringContaining('value'),
        },
      );
      const stranger = new InternalClient({ serviceToken: 'nope', urlOf: () => url });
      await expect(stranger.call(testInternalRoute, { value: 1 })).rejects.toMatchObject({ httpStatus: 503 });
      const nobody = new InternalClient({ serviceToken: SERVICE, urlOf: () => 'http://127.0.0.1:1' });
      await expect(nobody.call(testInternalRoute, { value: 1 })).rejects.toMatchObject({ httpStatus: 503 });
    });
  });
});
