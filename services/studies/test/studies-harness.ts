import { Controller, type INestApplication } from '@nestjs/common';
import { Input, InternalEndpoint, defineService, serviceEnv } from '@uis/kit';
import {
  createAppWithOverrides,
  createTestDatabase,
  testSecrets,
  testWorld,
  type TestDatabase,
  type TestWorld,
} from '@uis/kit/testing';
import {
  internalRoutes,
  type InternalRouteDef,
  type SESSION_ACCESS_LISTENERS,
  type ServiceName,
  type SessionDataOwner,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { SESSION_DATA_OWNER_LIST, studiesService } from '../src';

/** One call a stand-in received. */
export interface StandInCall {
  path: string;
  body: Record<string, unknown>;
}

/**
 * Stand-in for a sibling service's internal endpoints (content and records are being written at the
 * same time): served by the kit exactly as the real ones will be (proto route, service-token guard,
 * request validation), recording what studies asked and failing on demand.
 */
export class StandIn {
  readonly calls: StandInCall[] = [];
  /** Remaining failures per path. */
  readonly failures = new Map<string, number>();
  /** Runs before a call is answered (to simulate what happens meanwhile). */
  onCall?: (call: StandInCall) => Promise<void>;
  app!: INestApplication;
  url!: string;

  failNext(route: InternalRouteDef, times = 1): void {
    this.failures.set(route.path, times);
  }

  callsTo(route: InternalRouteDef): Record<string, unknown>[] {
    return this.calls.filter((call) => call.path === route.path).map((call) => call.body);
  }

  reset(): void {
    this.calls.length = 0;
    this.failures.clear();
    this.onCall = undefined;
  }

  async answer(route: InternalRouteDef, body: Record<string, unknown>) {
    const left = this.failures.get(route.path) ?? 0;
    if (left > 0) {
      this.failures.set(route.path, left - 1);
      throw new Error(`${route.service} stand-in failing on purpose`);
    }
    const call = { path: route.path, body };
    await this.onCall?.(call);
    this.calls.push(call);
    return { message: 'done' };
  }
}

async function serveStandIn(
  name: ServiceName,
  controller: new (...args: never[]) => unknown,
  env: Record<string, string>,
): Promise<{ app: INestApplication; url: string }> {
  const definition = defineService({
    name,
    env: serviceEnv,
    imports: () => [{ module: class StandInModule {}, controllers: [controller] }],
  });
  const app = await definition.createApp(env);
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

function contentController(standIn: StandIn) {
  @Controller()
  class ContentStandIn {
    @InternalEndpoint(internalRoutes.contentSessionDataDelete)
    deleteSessionData(@Input() body: Record<string, unknown>) {
      return standIn.answer(internalRoutes.contentSessionDataDelete, body);
    }

    @InternalEndpoint(internalRoutes.contentVideoDelete)
    deleteVideo(@Input() body: Record<string, unknown>) {
      return standIn.answer(internalRoutes.contentVideoDelete, body);
    }
  }
  return ContentStandIn;
}

function recordsController(standIn: StandIn) {
  @Controller()
  class RecordsStandIn {
    @InternalEndpoint(internalRoutes.recordsSessionDataDelete)
    deleteSessionData(@Input() body: Record<string, unknown>) {
      return standIn.answer(internalRoutes.recordsSessionDataDelete, body);
    }
  }
  return RecordsStandIn;
}

/** Auth's invitation mails. */
function authController(standIn: StandIn) {
  @Controller()
  class AuthStandIn {
    @InternalEndpoint(internalRoutes.authSendInvitation)
    sendInvitation(@Input() body: Record<string, unknown>) {
      return standIn.answer(internalRoutes.authSendInvitation, body);
    }
  }
  return AuthStandIn;
}

/** The live services' notice route, served by a stand-in of realtime or signal. */
function liveController(standIn: StandIn, route: (typeof SESSION_ACCESS_LISTENERS)[number]) {
  @Controller()
  class LiveStandIn {
    @InternalEndpoint(route)
    sessionAccessChanged(@Input() body: Record<string, unknown>) {
      return standIn.answer(route, body);
    }
  }
  return LiveStandIn;
}

export type { TestPerson } from '@uis/kit/testing';

/** Kit's test world (the cast, `as`, `person`, `session`), with studies itself answering its routes. */
export interface StudiesHarness extends TestWorld {
  app: INestApplication;
  db: TestDatabase;
  env: Record<string, string>;
  content: StandIn;
  records: StandIn;
  /** Stand-in of auth: the invitation mails studies asks for. */
  auth: StandIn;
  /** Stand-ins of the services studies tells when who may be in sessions changed. */
  realtime: StandIn;
  signal: StandIn;
  http: () => ReturnType<typeof request>;
  /** Raw SQL on the test database (search_path is the studies schema): for factories and checks. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Studies as createApp builds it, on a database of its own, with the content and records stand-ins
 * as its session-data owners (proto's list is still empty) unless `owners` says otherwise.
 */
export async function startStudies(
  label: string,
  owners: SessionDataOwner[] = ['content', 'records'],
  /** Studies' own variables over the harness's (e.g. DEFAULT_SESSION_SCOPE). */
  overrides: Record<string, string> = {},
): Promise<StudiesHarness> {
  const db = await createTestDatabase(label);
  const secrets: Record<string, string> = { ...testSecrets(), LOG_LEVEL: 'silent' };
  const content = new StandIn();
  const records = new StandIn();
  const realtime = new StandIn();
  const signal = new StandIn();
  const auth = new StandIn();
  const [contentServed, recordsServed, realtimeServed, signalServed, authServed] = await Promise.all([
    serveStandIn('content', contentController(content), secrets),
    serveStandIn('records', recordsController(records), secrets),
    serveStandIn('realtime', liveController(realtime, internalRoutes.realtimeSessionAccessChanged), secrets),
    serveStandIn('signal', liveController(signal, internalRoutes.signalSessionAccessChanged), secrets),
    serveStandIn('auth', authController(auth), secrets),
  ]);
  Object.assign(content, contentServed);
  Object.assign(records, recordsServed);
  Object.assign(realtime, realtimeServed);
  Object.assign(signal, signalServed);
  Object.assign(auth, authServed);

  const env: Record<string, string> = {
    ...secrets,
    DATABASE_URL: db.url,
    CONTENT_URL: content.url,
    RECORDS_URL: records.url,
    REALTIME_URL: realtime.url,
    SIGNAL_URL: signal.url,
    AUTH_URL: auth.url,
    ...overrides,
  };
  const app = await createAppWithOverrides(studiesService, env, [[SESSION_DATA_OWNER_LIST, owners]]);

  const pg = new Client({ connectionString: db.url, options: '-c search_path=studies' });
  await pg.connect();

  const http = () => request(app.getHttpServer());

  return {
    ...testWorld({ jwtSecret: env.JWT_SECRET!, studies: http }),
    app,
    db,
    env,
    content,
    records,
    auth,
    realtime,
    signal,
    http,
    async sql<T>(text: string, values: unknown[] = []) {
      return (await pg.query(text, values)).rows as T[];
    },
    async close() {
      await pg.end();
      await Promise.all([
        app.close(),
        ...[content, records, auth, realtime, signal].map((standIn) => standIn.app.close()),
      ]);
      await db.drop();
    },
  };
}

export const fakeId = () => randomUUID();
