import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '@uis/kit/testing';
import { readPostmasterPid, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/embedded-postgres';
import { isProcessAlive, signal, waitForExit } from '../src/processes';

/** Starts the embedded Postgres in a child process; resolves with the postmaster's pid and the child. */
function startInChild(clusterDir: string, port: number, password: string) {
  const child = spawn(
    process.execPath,
    [path.join(__dirname, 'fixtures', 'postgres-child.js'), clusterDir, String(port), password],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<number>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /READY (\d+)/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`child exited (${code}) before Postgres was ready:\n${stderr}`)),
    );
  });
  return { child, ready };
}

async function selectOne(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
    return rows[0]!.one;
  } finally {
    await client.end();
  }
}

describe('embedded Postgres', () => {
  let root: string;
  let clusterDir: string;
  const password = 'test-password-'.padEnd(40, 'x');
  const pids = new Set<number>();
  let postgres: EmbeddedPostgres | undefined;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-pg-'));
    // As root, Postgres runs as the `postgres` user, which must be able to enter this folder.
    fs.chmodSync(root, 0o755);
    clusterDir = path.join(root, 'postgres');
  });

  // Never leave a Postgres behind, whatever failed above.
  afterAll(async () => {
    await postgres?.stop();
    const left = readPostmasterPid(clusterDir)?.pid;
    for (const pid of [...pids, ...(left ? [left] : [])]) {
      if (!isProcessAlive(pid)) continue;
      signal(pid, 'SIGINT');
      if (!(await waitForExit(pid, 10_000))) signal(-pid, 'SIGKILL');
    }
    fs.rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('stops the Postgres a killed start left running, then starts and serves', async () => {
    const port = await freePort();
    const { child, ready } = startInChild(clusterDir, port, password);
    const orphan = await ready;
    pids.add(orphan);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isProcessAlive(orphan)).toBe(true);
    expect(readPostmasterPid(clusterDir)?.pid).toBe(orphan);

    const messages: string[] = [];
    postgres = await startEmbeddedPostgres({
      clusterDir,
      port,
      password,
      database: 'uis',
      log: (message) => messages.push(message),
    });
    pids.add(postgres.pid);

    expect(messages.join('\n')).toContain(
      `The embedded Postgres (pid ${orphan}) of an earlier start is still running`,
    );
    // initdb ran once, in the child: the cluster was kept.
    expect(messages.join('\n')).not.toContain('Creating the embedded Postgres cluster');
    expect(isProcessAlive(orphan)).toBe(false);
    expect(await selectOne(postgres.url)).toBe(1);
    expect(postgres.url).toBe(`postgres://postgres:${password}@127.0.0.1:${port}/uis`);

    await postgres.stop();
    expect(isProcessAlive(postgres.pid)).toBe(false);
    expect(readPostmasterPid(clusterDir)).toBeUndefined();
  }, 60_000);

  it('removes a postmaster.pid whose process is gone, and refuses a wrong password clearly', async () => {
    const port = await freePort();
    // A pid that surely is not a Postgres of this cluster: this test process itself.
    fs.writeFileSync(path.join(clusterDir, 'postmaster.pid'), `${process.pid}\n${clusterDir}\n0\n${port}\n`);
    const messages: string[] = [];
    await expect(
      startEmbeddedPostgres({
        clusterDir,
        port,
        password: 'wrong'.padEnd(40, '!'),
        database: 'uis',
        log: (m) => messages.push(m),
      }),
    ).rejects.toThrow(/rejected the password kept in secrets.json/);
    expect(messages.join('\n')).toContain('Removed a leftover');
    // The failed start stopped the Postgres it had started.
    expect(readPostmasterPid(clusterDir)).toBeUndefined();
  }, 30_000);
});
