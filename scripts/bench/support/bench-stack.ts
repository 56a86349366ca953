import fs from 'node:fs';
import path from 'node:path';
import {
  TEST_REDIS_URL,
  createTestDatabase,
  freePort,
  randomSuffix,
  type TestDatabase,
} from '@uis/kit/testing';
import { DEFAULT_APP_CONFIG } from '@uis/proto';
import { Client } from 'pg';
import { Lifecycle } from '../../launcher/src/lifecycle';
import { startStack, type Stack } from '../../launcher/src/stack/stack';
import { processTree } from './measure';

/**
 * `npm run stack` for a benchmark: every service its own process from its built main, realtime
 * twice on Redis, nginx on TLS in front, on free ports, a throwaway database and Redis prefix, JSON
 * logs at info as in production (read and dropped here). Secrets are the stack's own, in `scratch`.
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
  stop(): Promise<void>;
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
    stop: async () => {
      await admin.end();
      await lifecycle.stopAll();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
