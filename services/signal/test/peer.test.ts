import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { signAccessToken, type AuthUser } from '@uis/kit';
import { freePort, testSecrets, testUser } from '@uis/kit/testing';
import { ERROR_CODES, peerIdFor } from '@uis/proto';
import request from 'supertest';
import { signalService } from '../src';
import { registerPeer, type PeerAttempt } from '../src/testing';

/**
 * The signal service on its own: PeerJS's HTTP endpoints, every refusal the gate decides before it
 * asks studies, and the answer when studies cannot be reached. Registrations that need a real
 * session (and studies) are in scripts/system-tests/signal.test.ts; the call settings in call-settings.test.ts.
 */

describe('signal on its own', () => {
  const secrets = testSecrets();
  const user: AuthUser = testUser('participant', { email: 'pat@uni.test', name: 'Pat' });
  const token = signAccessToken(secrets.JWT_SECRET, user, 600);
  let app: INestApplication;
  let base: string;
  const http = () => request(app.getHttpServer() as Parameters<typeof request>[0]);

  beforeAll(async () => {
    app = await signalService.createApp({
      ...secrets,
      LOG_LEVEL: 'silent',
      STUDIES_URL: `http://127.0.0.1:${await freePort()}`,
    });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(() => app?.close());

  const expectRefused = (attempt: PeerAttempt, status: number, code: string, message?: RegExp) => {
    expect(attempt.kind).toBe('refused');
    if (attempt.kind !== 'refused') return;
    expect(attempt.status).toBe(status);
    expect(attempt.body).toMatchObject({ status: 'ERROR', res: { code } });
    if (message) expect((attempt.body as { res: { message: string } }).res.message).toMatch(message);
  };

  describe('PeerJS endpoints', () => {
    it('GET /stream/peerjs/id answers a fresh id each time', async () => {
      const first = await http().get('/stream/peerjs/id').expect(200);
      const second = await http().get('/stream/peerjs/id').expect(200);
      expect(first.text).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.text).not.toBe(first.text);
    });

    it('does not list the registered peers (discovery is off)', async () => {
      await http().get('/stream/peerjs/peers').expect(401);
    });

    it('keeps /health and /ready', async () => {
      await http().get('/health').expect(200);
      await http().get('/ready').expect(200);
    });
  });

  describe('registration refused before studies is asked', () => {
    const ownId = () => peerIdFor(randomUUID(), user.id);

    it('without a token: 401', async () => {
      expectRefused(await registerPeer(base, ownId(), null), 401, ERROR_CODES.UNAUTHENTICATED);
    });

    it('with a token signed by someone else: 401', async () => {
      const forged = signAccessToken(testSecrets().JWT_SECRET, user, 600);
      expectRefused(await registerPeer(base, ownId(), { cookie: forged }), 401, ERROR_CODES.UNAUTHENTICATED);
    });

    it('with an expired token: 401', async () => {
      const expired = signAccessToken(secrets.JWT_SECRET, user, -60);
      expectRefused(await registerPeer(base, ownId(), { bearer: expired }), 401, ERROR_CODES.UNAUTHENTICATED);
    });

    it('with garbage for a token: 401', async () => {
      expectRefused(
        await registerPeer(base, ownId(), { cookie: 'not.a.jwt' }),
        401,
        ERROR_CODES.UNAUTHENTICATED,
      );
    });

    it('with the token in the query string only: 401 (cookie or Authorization header only)', async () => {
      const attempt = await registerPeer(base, ownId(), null, { query: { accessToken: token } });
      expectRefused(attempt, 401, ERROR_CODES.UNAUTHENTICATED);
    });

    it.each([
      ['a random PeerJS id', randomUUID()],
      ['the two ids joined by a dash', `${randomUUID()}-${user.id}`],
      ['an empty id', ''],
      ['an instance that is too long', `${peerIdFor(randomUUID(), user.id)}_${'a'.repeat(17)}`],
    ])('for %s: 400', async (_, id) => {
      expectRefused(
        await registerPeer(base, id, { cookie: token }),
        400,
        ERROR_CODES.VALIDATION,
        /peerIdFor/,
      );
    });

    it('from a browser page of another origin, even with a valid cookie: 403', async () => {
      expectRefused(
        await registerPeer(base, ownId(), { cookie: token }, { origin: 'http://localhost:9999' }),
        403,
        ERROR_CODES.FORBIDDEN,
        /Connections from http:\/\/localhost:9999 are not allowed/,
      );
    });

    it("for someone else's id: 403", async () => {
      const theirs = peerIdFor(randomUUID(), randomUUID());
      expectRefused(
        await registerPeer(base, theirs, { bearer: token }),
        403,
        ERROR_CODES.FORBIDDEN,
        /someone else/,
      );
    });
  });

  it('answers 503 when studies cannot say whether the user is in the session', async () => {
    expectRefused(
      await registerPeer(base, peerIdFor(randomUUID(), user.id), { cookie: token }),
      503,
      ERROR_CODES.UNAVAILABLE,
    );
  });

  it('stays up after every refusal', async () => {
    await Promise.all(
      Array.from({ length: 20 }, async () =>
        expectRefused(await registerPeer(base, randomUUID(), null), 401, ERROR_CODES.UNAUTHENTICATED),
      ),
    );
    await http().get('/health').expect(200);
    await http().get('/stream/peerjs/id').expect(200);
  });
});
