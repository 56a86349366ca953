/// <reference types="node" />
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OIDC_PROVIDER_SCRIPT } from '@uis/auth/testing';
import { freePort } from '@uis/kit/testing';
import { NEWCOMER_UNSET_SETTINGS } from '@uis/proto/browser';
import { OUTPUT_DIR, REPO_ROOT, START_SCRIPT, WEB_DIST_INDEX } from './support/paths';
import { OIDC_TEST_ACCOUNTS, OIDC_TEST_PROVIDER } from './support/oidc';
import { publishStack } from './support/stack-env';
import { startTestTurn } from './support/turn';

/**
 * Starts `npm start`'s process as a newcomer runs it: the embedded default (embedded Postgres,
 * embedded S3, in-process queue, dev outbox printing magic links), in a fresh data folder and on free
 * ports so a running `npm start` on the default ones does not clash. It builds nothing: the root
 * `npm test` builds first. The returned function stops it (Playwright's teardown).
 */

const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

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

/** The test's OpenID Connect provider (auth's test provider, oidc-provider in its own process). */
async function startOidcProvider(port: number, redirectUri: string) {
  const script = OIDC_PROVIDER_SCRIPT;
  const client = {
    client_id: OIDC_TEST_PROVIDER.clientId,
    client_secret: OIDC_TEST_PROVIDER.clientSecret,
    redirect_uris: [redirectUri],
  };
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      PORT: String(port),
      OIDC_TEST_CLIENT: JSON.stringify(client),
      OIDC_TEST_ACCOUNTS: JSON.stringify(OIDC_TEST_ACCOUNTS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the OIDC test provider exited (${code}):\n${output}`)));
  });
  const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    issuer,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await stopped;
    },
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  requireBuild();
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-e2e-'));
  const serverLog = path.join(OUTPUT_DIR, 'server.log');
  const [api, realtime, signal, postgres, s3, oidc, turnPort] = (
    await Promise.all(Array.from({ length: 7 }, () => freePort()))
  ).map(String);
  const baseUrl = `http://localhost:${api}`;
  // The calls' TURN server, as a deployment runs its own: Debian's coturn with a secret of this run.
  const turnSecret = randomBytes(32).toString('hex');
  const turn = await startTestTurn(Number(turnPort), turnSecret);
  const provider = await startOidcProvider(Number(oidc), `${baseUrl}/oidc/callback`).catch(
    async (error: unknown) => {
      await turn.stop();
      throw error;
    },
  );

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NEWCOMER_UNSET_SETTINGS) delete env[name];
  Object.assign(env, {
    UIS_DATA_DIR: dataDir,
    API_PORT: api,
    REALTIME_PORT: realtime,
    SIGNAL_PORT: signal,
    EMBEDDED_PG_PORT: postgres,
    EMBEDDED_S3_PORT: s3,
    // A university's sign-in: the test's own OpenID Connect provider.
    OIDC_PROVIDERS: OIDC_TEST_PROVIDER.id,
    OIDC_TESTUNI_ISSUER: provider.issuer,
    OIDC_TESTUNI_CLIENT_ID: OIDC_TEST_PROVIDER.clientId,
    OIDC_TESTUNI_CLIENT_SECRET: OIDC_TEST_PROVIDER.clientSecret,
    OIDC_TESTUNI_LABEL: OIDC_TEST_PROVIDER.label,
    OIDC_TESTUNI_EMAIL_DOMAINS: OIDC_TEST_PROVIDER.emailDomains,
    // No public STUN/TURN (nothing outside this machine); the run's coturn, with credentials per caller.
    ICE_SERVERS: '[]',
    TURN_URLS: turn.url,
    TURN_SECRET: turnSecret,
  });

  const out = fs.openSync(serverLog, 'w');
  const child = spawn(process.execPath, [START_SCRIPT], { cwd: REPO_ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);

  try {
    await waitUntilReady(baseUrl, child, serverLog);
  } catch (error) {
    await Promise.all([stop(child, dataDir), provider.stop(), turn.stop()]);
    throw error;
  }
  console.log(`[e2e] npm start is ready at ${baseUrl} (log: ${path.relative(process.cwd(), serverLog)})`);
  publishStack({
    baseUrl,
    serverLog,
    outboxDir: path.join(dataDir, 'outbox'),
    oidcIssuer: provider.issuer,
    turnUrl: turn.url,
    turnSecret,
  });
  return async () => {
    await Promise.all([stop(child, dataDir), provider.stop(), turn.stop()]);
  };
}
