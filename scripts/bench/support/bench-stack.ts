import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { InternalClient, signAccessToken, type AuthUser } from '@uis/kit';
import {
  TEST_REDIS_URL,
  apiClient,
  createTestDatabase,
  freePort,
  randomSuffix,
  testUser,
  type TestDatabase,
} from '@uis/kit/testing';
import {
  DEFAULT_APP_CONFIG,
  EVERYONE,
  MESSAGE_PAGE_MAX,
  internalRoutes,
  orderMessages,
  type MessageRecord,
} from '@uis/proto';
import { realtimeService } from '@uis/realtime';
import { Client } from 'pg';
import request from 'supertest';
import { Lifecycle } from '../../launcher/src/lifecycle';
import { startStack, type Stack } from '../../launcher/src/stack/stack';
import { processTree } from './measure';

/**
 * `npm run stack` for a benchmark: every service its own process from its built main, realtime
 * twice on Redis, nginx on TLS in front, on free ports, a throwaway database and Redis prefix, JSON
 * logs at info as in production (read and dropped here). Secrets are the stack's own, in `scratch`.
 * A benchmark that must watch realtime work from inside (socket.io's engine) adds replicas in its
 * own process with `replica()`, on the stack's studies and records.
 */
export interface BenchStack {
  stack: Stack;
  db: TestDatabase;
  /** The stack's secrets (JWT_SECRET to sign users' tokens, SERVICE_TOKEN for internal routes). */
  secrets: Record<string, string>;
  /** Pids of a process by label ('gateway' includes nginx's workers). */
  pidsOf(label: string): number[];
  /** Every process of ours, the gateway's workers included. */
  ourPids(): number[];
  /** The Postgres backends serving this stack's database. */
  postgresPids(): Promise<number[]>;
  /** A user and an access token of theirs, valid for an hour. */
  person(type: AuthUser['type'], name: string): { user: AuthUser; token: string };
  /** A new session of `owner`'s, in a group of its own, open to everyone. */
  session(owner: { token: string }): Promise<string>;
  /**
   * A realtime replica in this process on the stack's studies and records, with `overrides` over
   * its env (no REDIS_URL: the in-memory adapter, one replica alone). Stopped by `close` or `stop`.
   */
  replica(overrides?: Record<string, string>): Promise<RealtimeReplica>;
  /** Records' internal client, as realtime calls it. */
  records(): InternalClient;
  /** Every message of the session, as records stores it (paged like the live chat's history). */
  storedMessages(sessionId: string): Promise<MessageRecord[]>;
  stop(): Promise<void>;
}

export interface RealtimeReplica {
  url: string;
  app: Awaited<ReturnType<typeof realtimeService.createApp>>;
  close(): Promise<void>;
}

export async function startBenchStack(
  label: string,
  scratch: string,
  env: Record<string, string> = {},
): Promise<BenchStack> {
  const db = await createTestDatabase(`bench_${label}`);
  const dataDir = fs.mkdtempSync(path.join(scratch, `${label}-`));
  const prefix = `uis-bench-${label}-${randomSuffix()}`;
  const lifecycle = new Lifecycle(() => undefined);
  let stack: Stack;
  try {
    stack = await startStack(
      {
        dataDir,
        gatewayPort: await freePort(),
        ports: {
          auth: await freePort(),
          studies: await freePort(),
          content: await freePort(),
          records: await freePort(),
          mailer: await freePort(),
          signal: await freePort(),
          realtime: [await freePort(), await freePort()],
        },
        databaseUrl: db.url,
        redisUrl: TEST_REDIS_URL,
        env: { LOG_FORMAT: 'json', LOG_LEVEL: 'info', REDIS_PREFIX: prefix, QUEUE_PREFIX: prefix, ...env },
        appConfig: DEFAULT_APP_CONFIG,
        sink: () => undefined,
        log: () => undefined,
      },
      lifecycle,
    );
  } catch (error) {
    await lifecycle.stopAll();
    await db.drop();
    throw error;
  }
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<
    string,
    string
  >;
  const pidsOf = (wanted: string) =>
    stack.processes.filter((child) => child.label === wanted).flatMap((child) => processTree(child.pid));
  const admin = new Client({ connectionString: db.url });
  await admin.connect();
  const replicas = new Set<RealtimeReplica>();
  const records = () =>
    new InternalClient({ serviceToken: secrets.SERVICE_TOKEN!, urlOf: () => stack.serviceUrls.records });
  const person = (type: AuthUser['type'], name: string) => {
    const user = testUser(type, { name });
    return { user, token: signAccessToken(secrets.JWT_SECRET!, user, 3600) };
  };
  return {
    stack,
    db,
    secrets,
    pidsOf,
    ourPids: () => stack.processes.flatMap((child) => processTree(child.pid)),
    postgresPids: async () =>
      (
        await admin.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows.map((row) => row.pid),
    person,
    session: (owner) => openSession(stack.serviceUrls.studies, owner.token),
    replica: async (overrides = {}) => {
      const app = await realtimeService.createApp({
        JWT_SECRET: secrets.JWT_SECRET!,
        SERVICE_TOKEN: secrets.SERVICE_TOKEN!,
        STUDIES_URL: stack.serviceUrls.studies,
        RECORDS_URL: stack.serviceUrls.records,
        LOG_LEVEL: 'silent',
        ...overrides,
      });
      await app.listen(0, '127.0.0.1');
      const { port } = (app.getHttpServer() as Server).address() as { port: number };
      const replica: RealtimeReplica = {
        url: `http://127.0.0.1:${port}`,
        app,
        close: async () => {
          if (replicas.delete(replica)) await app.close();
        },
      };
      replicas.add(replica);
      return replica;
    },
    records,
    storedMessages: (sessionId) => storedMessages(records(), sessionId),
    stop: async () => {
      await Promise.all([...replicas].map((replica) => replica.close()));
      await admin.end();
      await lifecycle.stopAll();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A group and a session in it open to everyone, through studies' own address, as the owner of `token`. */
async function openSession(studiesUrl: string, token: string): Promise<string> {
  const studies = apiClient(() => request(studiesUrl));
  const { group } = await studies.ok('createGroup', {}, token);
  const { session } = await studies.ok('createSession', { groupId: group.group_id }, token);
  const sessionId = session.session_id;
  await studies.ok('editSessionInfo', { sessionId, scope: EVERYONE, state: 'live' }, token);
  return sessionId;
}

async function storedMessages(records: InternalClient, sessionId: string): Promise<MessageRecord[]> {
  const messages: MessageRecord[] = [];
  for (let before: string | undefined; ;) {
    const page = await records.call(internalRoutes.recordsListMessages, {
      sessionId,
      limit: MESSAGE_PAGE_MAX,
      ...(before === undefined ? {} : { before }),
    });
    messages.unshift(...page.messages);
    if (!page.hasMore || page.messages.length === 0) break;
    before = page.messages[0]!.message_id;
  }
  return orderMessages(messages);
}
