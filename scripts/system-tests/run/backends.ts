import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '@uis/kit/testing';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../launcher/src/embedded-postgres';
import type { Lifecycle } from '../../launcher/src/lifecycle';
import { startChild, waitUntilReady } from '../../launcher/src/stack/child-process';
import { StartupError } from '../../launcher/src/startup-error';

/**
 * The Postgres and Redis of a test run: the ones DATABASE_URL and REDIS_URL name, else the ones on
 * the tests' default addresses (CI's, a developer's), else servers of the run's own.
 */

/** Use the server at `url`, or start one because nothing answers where the tests look by default. */
export type BackendPlan = { use: string } | { start: true };

export interface Backend {
  name: 'Postgres' | 'Redis';
  envName: 'DATABASE_URL' | 'REDIS_URL';
  /** Resolves when `url` serves what the tests need of it; rejects with the reason otherwise. */
  check(url: string): Promise<void>;
}

const CHECK_TIMEOUT_MS = 3_000;

/** The tests create and drop a database per file: the user must be allowed to. */
async function checkPostgres(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ may: boolean }>(
      'SELECT rolsuper OR rolcreatedb AS may FROM pg_roles WHERE rolname = current_user',
    );
    if (!rows[0]?.may) throw new Error('its user may not create databases');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // connect() rejects with "Connection is closed."; the reason (ECONNREFUSED, ...) came as an event.
  let reason: unknown;
  redis.on('error', (error) => (reason = error));
  try {
    await redis.connect().catch((error: unknown) => {
      throw reason ?? error;
    });
    const answer: string = await redis.ping();
    if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
  } finally {
    redis.disconnect();
  }
}

export const POSTGRES: Backend = { name: 'Postgres', envName: 'DATABASE_URL', check: checkPostgres };
export const REDIS: Backend = { name: 'Redis', envName: 'REDIS_URL', check: checkRedis };

/** Whether anything accepts a TCP connection there: only "nothing" lets the run start its own. */
export function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(CHECK_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A URL fit for a log line: its password replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * The message of what a client rejected with. Duck-typed, since Node's own errors come from another
 * realm under Jest; an AggregateError (every address refused) has no message of its own.
 */
function reasonOf(error: unknown): string {
  const { errors, message, code } = (error ?? {}) as { errors?: unknown[]; message?: string; code?: string };
  if (Array.isArray(errors) && errors.length > 0) return reasonOf(errors[0]);
  return (message || code || String(error)).replace(/\.$/, '');
}

/** A check that neither answers nor fails (a server that takes the connection and says nothing) fails in time. */
function withinCheckTimeout(check: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What the run does about one backend. A StartupError (one line, no stack) when the variable names a
 * server that does not serve, or when something on the default address refuses the tests: starting
 * another server would hide a misconfiguration that CI should see.
 */
export async function planBackend(
  backend: Backend,
  env: NodeJS.ProcessEnv,
  defaultUrl: string,
): Promise<BackendPlan> {
  const configured = env[backend.envName];
  if (configured) {
    await withinCheckTimeout(backend.check(configured)).catch((error: unknown) => {
      throw new StartupError(
        `${backend.envName}=${withoutPassword(configured)} does not serve the tests: ${reasonOf(error)}.`,
      );
    });
    return { use: configured };
  }
  const { hostname, port } = new URL(defaultUrl);
  if (!(await portAnswers(hostname, Number(port)))) return { start: true };
  await withinCheckTimeout(backend.check(defaultUrl)).catch((error: unknown) => {
    throw new StartupError(
      `Something answers on ${hostname}:${port} but does not serve the tests as ${withoutPassword(defaultUrl)} ` +
        `(${reasonOf(error)}): set ${backend.envName} to a ${backend.name} they may use.`,
    );
  });
  return { use: defaultUrl };
}

/** The embedded Postgres of `npm start`, in a cluster of the run's own; stopped with `lifecycle`. */
export async function startTestPostgres(
  scratch: string,
  log: (message: string) => void,
  lifecycle: Lifecycle,
): Promise<string> {
  const postgres = await startEmbeddedPostgres({
    clusterDir: path.join(scratch, 'postgres'),
    port: await freePort(),
    password: randomBytes(16).toString('hex'),
    database: 'test',
    log,
    portEnvName: 'DATABASE_URL',
  });
  lifecycle.onStop('the tests’ Postgres', () => postgres.stop(), 20_000);
  return postgres.url;
}

const REDIS_READY_MS = 10_000;

/** `redis-server` from the PATH on a free port, without persistence, its folder in `scratch`. */
export async function startTestRedis(
  scratch: string,
  env: NodeJS.ProcessEnv,
  lifecycle: Lifecycle,
): Promise<string> {
  const port = await freePort();
  const dir = path.join(scratch, 'redis');
  fs.mkdirSync(dir);
  const child = startChild({
    label: 'redis-server',
    command: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    env: { PATH: env.PATH },
    // Its log is kept (lastLines) for the message if it fails to start; otherwise nobody needs it.
    sink: () => undefined,
  });
  lifecycle.onStop('the tests’ Redis', () => child.stop('SIGTERM', 5_000), 10_000);
  const url = `redis://127.0.0.1:${port}`;
  await waitUntilReady(child, () => checkRedis(url).then(() => 200), REDIS_READY_MS);
  return url;
}
