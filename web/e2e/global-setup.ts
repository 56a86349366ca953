/// <reference types="node" />
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OUTPUT_DIR, REPO_ROOT, START_SCRIPT, WEB_DIST_INDEX } from './support/paths';
import { publishStack } from './support/stack-env';

/**
 * Starts `npm start`'s process as a newcomer runs it: the embedded default (embedded Postgres,
 * embedded S3, in-process queue, dev outbox printing magic links), in a fresh data folder and on free
 * ports so a running `npm start` on the default ones does not clash. It builds nothing: the root
 * `npm test` builds first. The returned function stops it (Playwright's teardown).
 */

const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * Settings a newcomer has not made: without them `npm start` picks its embedded defaults. CI exports
 * DATABASE_URL and REDIS_URL for the service tests; they must not reach this process.
 */
const NEWCOMER_UNSETS = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'S3_BUCKET',
  'S3_REGION',
  'PUBLIC_URL',
  'RESEARCHER_EMAILS',
  'SIGNUP_EMAIL_PROOF',
  'JWT_SECRET',
  'SERVICE_TOKEN',
  'OUTBOX_DIR',
  'HOST',
  'PORT',
  'NODE_ENV',
  'AUTH_URL',
  'STUDIES_URL',
  'CONTENT_URL',
  'RECORDS_URL',
  'MAILER_URL',
  'REALTIME_URL',
  'SIGNAL_URL',
];

/** Distinct free ports, held together while chosen so none is handed out twice. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function requireBuild(): void {
  for (const file of [START_SCRIPT, WEB_DIST_INDEX]) {
    if (!fs.existsSync(file)) {
      throw new Error(`${file} is missing: build first (npm run build at the repository root).`);
    }
  }
}

const tail = (file: string) => fs.readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');

async function waitUntilReady(baseUrl: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`npm start exited with code ${child.exitCode} before it was ready:\n${tail(log)}`);
    }
    const ready = await fetch(`${baseUrl}/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm start was not ready after ${READY_TIMEOUT_MS} ms:\n${tail(log)}`);
}

async function stop(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => {
      console.error(`[e2e] npm start did not stop within ${STOP_TIMEOUT_MS} ms: killing it`);
      child.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  requireBuild();
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-e2e-'));
  const serverLog = path.join(OUTPUT_DIR, 'server.log');
  const [api, realtime, signal, postgres, s3] = (await freePorts(5)).map(String);

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NEWCOMER_UNSETS) delete env[name];
  Object.assign(env, {
    UIS_DATA_DIR: dataDir,
    API_PORT: api,
    REALTIME_PORT: realtime,
    SIGNAL_PORT: signal,
    EMBEDDED_PG_PORT: postgres,
    EMBEDDED_S3_PORT: s3,
  });

  const out = fs.openSync(serverLog, 'w');
  const child = spawn(process.execPath, [START_SCRIPT], { cwd: REPO_ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);

  const baseUrl = `http://localhost:${api}`;
  try {
    await waitUntilReady(baseUrl, child, serverLog);
  } catch (error) {
    await stop(child, dataDir);
    throw error;
  }
  console.log(`[e2e] npm start is ready at ${baseUrl} (log: ${path.relative(process.cwd(), serverLog)})`);
  publishStack({ baseUrl, serverLog, outboxDir: path.join(dataDir, 'outbox') });
  return () => stop(child, dataDir);
}
