import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive, processCommandLine } from './processes';
import { StartupError } from './startup-error';

/**
 * The repository root. Found from this file's location (scripts/launcher/src or its build in scripts/dist), not from
 * the working directory, so `npm start` run from any folder uses the same `.data/`.
 */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === '@uis/scripts') return path.dirname(dir);
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the @uis/scripts package above ${__dirname}`);
    dir = parent;
  }
}

/** Where the embedded mode keeps everything it must not lose on restart. UIS_DATA_DIR moves it. */
export function dataDir(): string {
  return path.resolve(process.env.UIS_DATA_DIR ?? path.join(repoRoot(), '.data'));
}

/** The folders inside the data directory, in one place so start, admin and docs agree. */
export const dataPaths = (root: string) => ({
  root,
  secrets: path.join(root, 'secrets.json'),
  /** Held by a running `npm start`; tells a second start (and stale cleanup) that the data is in use. */
  lock: path.join(root, 'start.pid'),
  postgres: path.join(root, 'postgres'),
  s3: path.join(root, 's3'),
  outbox: path.join(root, 'outbox'),
});

export interface Secrets {
  JWT_SECRET: string;
  SERVICE_TOKEN: string;
  /** Password of the embedded Postgres superuser: set by initdb on the first start. */
  POSTGRES_PASSWORD: string;
  /** The key pair the embedded S3 server accepts (and content signs with). */
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
}

const SECRET_KEYS: readonly (keyof Secrets)[] = [
  'JWT_SECRET',
  'SERVICE_TOKEN',
  'POSTGRES_PASSWORD',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
];
const newSecret = () => randomBytes(32).toString('hex');

/**
 * The embedded mode's secrets, generated once and kept so that tokens and the database password
 * survive a restart. The file is readable by its owner only.
 */
export function loadOrCreateSecrets(file: string): Secrets {
  let stored: Partial<Record<string, unknown>> = {};
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<string, unknown>>;
    } catch {
      throw new StartupError(
        `${file} is not valid JSON. Fix it, or delete it together with the database folder beside it ` +
          '(signed-in users will have to sign in again).',
      );
    }
  }
  const secrets = {} as Secrets;
  let changed = false;
  for (const key of SECRET_KEYS) {
    const value = stored[key];
    if (typeof value === 'string' && value.length >= 32) {
      secrets[key] = value;
    } else {
      secrets[key] = newSecret();
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}

/** The stored secrets, without creating any: for commands that need the ones `npm start` made. */
export function readSecrets(file: string): Secrets | undefined {
  if (!existsSync(file)) return undefined;
  return loadOrCreateSecrets(file);
}

/**
 * Marks the data directory as used by this process. Refuses when another live `npm start` (or admin
 * command) holds it: stale-process cleanup must never stop the Postgres of a run that is still going.
 * The lock names the holder's script too, so a pid reused by an unrelated process does not count.
 */
export function claimDataDir(lockFile: string): { release(): void } {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  if (existsSync(lockFile)) {
    const [pidLine = '', script = ''] = readFileSync(lockFile, 'utf8').split('\n');
    const pid = Number.parseInt(pidLine, 10);
    const holder = isProcessAlive(pid) ? processCommandLine(pid) : undefined;
    if (pid !== process.pid && holder !== undefined && script !== '' && holder.includes(script)) {
      throw new StartupError(
        `Another \`npm start\` (pid ${pid}) is using ${path.dirname(lockFile)}. Stop it first (Ctrl-C in its terminal, or kill ${pid}).`,
      );
    }
  }
  writeFileSync(lockFile, `${process.pid}\n${process.argv[1] ?? ''}\n`);
  return {
    release() {
      try {
        if (Number.parseInt(readFileSync(lockFile, 'utf8'), 10) === process.pid) rmSync(lockFile);
      } catch {
        // already gone
      }
    },
  };
}
