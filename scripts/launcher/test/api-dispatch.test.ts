import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Module,
  Post,
  type INestApplication,
  type OnModuleInit,
} from '@nestjs/common';
import { Readiness, contentSecurityPolicyHeader, defineService, serviceEnv } from '@uis/kit';
import { testSecrets } from '@uis/kit/testing';
import type { ServiceName } from '@uis/proto';
import { realtimeService } from '@uis/realtime';
import request from 'supertest';
import { createApiDispatcher } from '../src/api-dispatch';

/** Stand-in for auth: answers one proto route and one internal path, and says who answered. */
let authReady = true;

@Controller()
class AuthStandInController {
  @Post('auth/magiclogin')
  @HttpCode(200)
  magicLogin(@Body() body: unknown) {
    return { answeredBy: 'auth', body };
  }

  @Get('internal/auth/ping')
  ping() {
    return { answeredBy: 'auth-internal' };
  }
}

@Module({ controllers: [AuthStandInController] })
class AuthStandInModule implements OnModuleInit {
  constructor(@Inject(Readiness) private readonly readiness: Readiness) {}

  onModuleInit() {
    this.readiness.add('database', () =>
      authReady ? Promise.resolve() : Promise.reject(new Error('connection refused')),
    );
  }
}

const authStandIn = defineService({ name: 'auth', env: serviceEnv, imports: () => [AuthStandInModule] });

describe('the API dispatcher', () => {
  const env = { ...testSecrets(), LOG_LEVEL: 'silent' };
  const apps = new Map<ServiceName, INestApplication>();
  let webDist: string;

  beforeAll(async () => {
    apps.set('auth', await authStandIn.createApp(env));
    apps.set('realtime', await realtimeService.createApp(env));
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>uis</title>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  });
  afterAll(async () => {
    await Promise.all([...apps.values()].map((app) => app.close()));
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const dispatcher = (withWeb = false) =>
    createApiDispatcher({ apps, webDist: withWeb ? webDist : undefined });

  it('hands a proto route to the app of the service that owns it, body unread', async () => {
    const res = await request(dispatcher())
      .post('/auth/magiclogin')
      .send({ destination: 'you@example.com' })
      .expect(200);
    expect(res.body).toEqual({
      status: 'SUCCESS',
      res: { answeredBy: 'auth', body: { destination: 'you@example.com' } },
    });
  });

  it('hands /internal/<service>/... to that service', async () => {
    const res = await request(dispatcher()).get('/internal/auth/ping').expect(200);
    expect(res.body.res).toEqual({ answeredBy: 'auth-internal' });
  });

  it('does not hand /internal/ to a caller from another host, as the gateway would not', async () => {
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4');
    if (!outside) throw new Error('this test needs a non-loopback IPv4 interface to call from');
    const server = http.createServer(dispatcher()).listen(0, '0.0.0.0');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const fromOutside = await fetch(`http://${outside.address}:${port}/internal/auth/ping`);
      expect(fromOutside.status).toBe(404);
      // The same path from loopback (the services of this process) still works.
      expect((await fetch(`http://127.0.0.1:${port}/internal/auth/ping`)).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('sends the security headers the gateway sends: the CSP the app runs under, nosniff, no framing', async () => {
    const page = await request(dispatcher(true)).get('/').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-security-policy']).toBe(contentSecurityPolicyHeader());
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['strict-transport-security']).toBeUndefined(); // plain http: no HSTS
    const api = await request(dispatcher()).post('/auth/magiclogin').send({}).expect(200);
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['cache-control']).toBe('no-store');
    const tls = await request(createApiDispatcher({ apps, tls: true }))
      .get('/health')
      .expect(200);
    expect(tls.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
  });

  it('leaves a route of a service it does not hold to the 404 envelope', async () => {
    const res = await request(dispatcher()).get('/getGroups').expect(404);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message: 'No such route: GET /getGroups', code: 'NOT_FOUND' },
    });
    await request(dispatcher()).get('/assets/some-session/video.mp4').expect(404);
  });

  it('answers an unknown path, or a known path with the wrong method, with the 404 envelope', async () => {
    const res = await request(dispatcher()).post('/nope?token=secret').expect(404);
    expect(res.body).toEqual({
      status: 'ERROR',
      res: { message: 'No such route: POST /nope', code: 'NOT_FOUND' },
    });
    const wrongMethod = await request(dispatcher()).get('/auth/magiclogin').expect(404);
    expect(wrongMethod.body.res.message).toBe('No such route: GET /auth/magiclogin');
  });

  it('answers /health itself and /ready from every composed app', async () => {
    const health = await request(dispatcher()).get('/health').expect(200);
    expect(health.body.status).toBe('SUCCESS');

    const ready = await request(dispatcher()).get('/ready').expect(200);
    expect(ready.body.res).toEqual({ ready: true, services: ['auth', 'realtime'] });

    authReady = false;
    try {
      const notReady = await request(dispatcher()).get('/ready').expect(503);
      expect(notReady.body).toEqual({
        status: 'ERROR',
        res: { message: 'Not ready: auth (database: connection refused)', code: 'UNAVAILABLE' },
      });
    } finally {
      authReady = true;
    }
  });

  it('serves the built web app: its files, and index.html for pages of client-side routes', async () => {
    const app = dispatcher(true);
    await request(app).get('/assets/app.js').expect(200, 'console.log(1)');
    const page = await request(app).get('/authcallback?email=a%40b.c').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<title>uis</title>');
    await request(app).get('/').set('Accept', 'text/html').expect(200);
    // An API client asking for JSON still gets the 404 envelope.
    await request(app).get('/authcallback').set('Accept', 'application/json').expect(404);
    // Routes still go to their service.
    await request(app).post('/auth/magiclogin').send({}).expect(200);
  });
});
