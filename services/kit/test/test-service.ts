import { Controller, Module, type DynamicModule } from '@nestjs/common';
import { Message, type InternalRouteDef, type RouteDef } from '@uis/proto';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import {
  CurrentUser,
  Endpoint,
  Input,
  InternalEndpoint,
  KitModule,
  Metrics,
  Readiness,
  createLogger,
  createServiceApp,
  currentRequestId,
  notFound,
  signAccessToken,
  type AuthUser,
} from '../src';

/** Routes shaped like proto's, served by a tiny controller, to test the kit's plumbing end to end. */
export const testRoutes = {
  echo: {
    method: 'POST',
    path: '/test/echo',
    service: 'auth',
    access: 'public',
    summary: 'echo',
    request: z.object({
      name: z.string().min(1, 'Please provide your name.'),
      count: z.number().int().optional(),
    }),
    answer: z.object({ name: z.string() }),
  },
  me: {
    method: 'GET',
    path: '/test/me',
    service: 'auth',
    access: 'user',
    summary: 'me',
    request: z.object({}),
    answer: z.object({ email: z.string() }),
  },
  lab: {
    method: 'GET',
    path: '/test/lab',
    service: 'auth',
    access: 'researcher',
    tokenInQuery: true,
    summary: 'researchers only',
    request: z.object({ accessToken: z.string().optional() }),
    answer: Message,
  },
  boom: {
    method: 'GET',
    path: '/test/boom',
    service: 'auth',
    access: 'public',
    summary: 'fails unexpectedly',
    request: z.object({}),
    answer: Message,
  },
  touch: {
    method: 'POST',
    path: '/test/touch',
    service: 'auth',
    access: 'user',
    summary: 'a change a signed-in user makes',
    request: z.object({ note: z.string().optional() }),
    answer: Message,
  },
  databaseDown: {
    method: 'GET',
    path: '/test/database-down',
    service: 'auth',
    access: 'public',
    summary: 'fails as a query does while Postgres restarts',
    request: z.object({}),
    answer: Message,
  },
} satisfies Record<string, RouteDef>;

/** Answers the request id it runs under, and refuses `value` 0 with a 404 (a refusal to pass on). */
export const testRequestIdRoute = {
  method: 'POST',
  path: '/internal/auth/request-id',
  service: 'auth',
  summary: 'request id',
  request: z.object({ value: z.number() }),
  answer: z.object({ requestId: z.string().nullable() }),
} satisfies InternalRouteDef;

export const testInternalRoute = {
  method: 'POST',
  path: '/internal/auth/ping',
  service: 'auth',
  summary: 'ping',
  request: z.object({ value: z.number() }),
  answer: z.object({ doubled: z.number() }),
} satisfies InternalRouteDef;

@Controller()
class TestController {
  @Endpoint(testRoutes.echo)
  echo(@Input() input: { name: string }) {
    return { name: input.name };
  }

  @Endpoint(testRoutes.me)
  me(@CurrentUser() user: AuthUser) {
    return { email: user.email };
  }

  @Endpoint(testRoutes.lab)
  lab() {
    return { message: 'welcome' };
  }

  @Endpoint(testRoutes.boom)
  boom(): never {
    throw new Error('database password is hunter2 at /secret/path');
  }

  @Endpoint(testRoutes.touch)
  touch() {
    return { message: 'touched' };
  }

  @Endpoint(testRoutes.databaseDown)
  databaseDown(): never {
    // What pg throws for a query on a connection the restarting server ended.
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  }

  @InternalEndpoint(testInternalRoute)
  ping(@Input() input: { value: number }) {
    return { doubled: input.value * 2 };
  }

  @InternalEndpoint(testRequestIdRoute)
  requestId(@Input() input: { value: number }) {
    if (input.value === 0) throw notFound('Nothing has the value 0.');
    return { requestId: currentRequestId() ?? null };
  }
}

@Module({ controllers: [TestController] })
class TestFeatureModule {}

@Module({})
class TestRootModule {}

export const JWT = 'a'.repeat(40);
export const SERVICE = 'b'.repeat(40);

export async function startTestService() {
  const logStream = new PassThrough();
  const lines: string[] = [];
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const logger = createLogger({ service: 'auth', level: 'info', destination: logStream });
  const metrics = new Metrics('auth');
  const root: DynamicModule = {
    module: TestRootModule,
    imports: [
      KitModule.forRoot({
        service: 'auth',
        logger,
        jwtSecret: JWT,
        serviceToken: SERVICE,
        urlOf: () => 'http://127.0.0.1:1',
        metrics,
      }),
      TestFeatureModule,
    ],
  };
  const app = await createServiceApp(root, { logger, metrics, trustProxy: 'loopback' });
  return { app, logs: lines, readiness: app.get(Readiness) };
}

export const tokenFor = (user: Partial<AuthUser> = {}, ttlSeconds = 60) =>
  signAccessToken(
    JWT,
    {
      id: '7d9f0c52-7c0e-4c3f-9a53-3d4f3f1f0c11',
      email: 'ada@lab.test',
      name: 'Ada',
      type: 'participant',
      loginId: '0b1f2f6e-55a4-4b0c-9d39-7f1a2e3c4d5e',
      ...user,
    },
    ttlSeconds,
  );
