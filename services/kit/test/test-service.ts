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
  Readiness,
  createLogger,
  createServiceApp,
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
} satisfies Record<string, RouteDef>;

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

  @InternalEndpoint(testInternalRoute)
  ping(@Input() input: { value: number }) {
    return { doubled: input.value * 2 };
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
  const root: DynamicModule = {
    module: TestRootModule,
    imports: [
      KitModule.forRoot({
        service: 'auth',
        logger,
        jwtSecret: JWT,
        serviceToken: SERVICE,
        urlOf: () => 'http://127.0.0.1:1',
      }),
      TestFeatureModule,
    ],
  };
  const app = await createServiceApp(root, { logger, trustProxy: 'loopback' });
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
      ...user,
    },
    ttlSeconds,
  );
