import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { TEST_DATABASE_URL, TEST_REDIS_URL, freePort, randomSuffix, waitFor } from '@uis/kit/testing';
import { POSTGRES, REDIS, planBackend, portAnswers } from './run/backends';
import { installLine, missingPrograms, type RequiredProgram } from './run/required-programs';
import { runTests, type TestRunOptions } from './run/run-tests';

/**
 * `npm test`'s frame (scripts/system-tests/run). The shared Postgres and Redis stay up: the "nothing
 * answers" case points the defaults at free ports instead of stopping them.
 */

const CHECK_STEP = path.join(__dirname, 'support', 'fixtures', 'check-test-backends.js');
const REDIS_SERVER: RequiredProgram = { candidates: ['redis-server'], debianPackage: 'redis-server' };

/** The environment without the variables a CI run or an outer test run sets. */
const bareEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
};

/** Something that accepts connections and says nothing a client understands. */
async function impostor(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      // pg and ioredis stop reading after the garbage, so they never see the end: close for them.
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let scratch: string;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-test-run-test-'));
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('what the run needs besides Node', () => {
  it('says in one line what to install, from Debian or otherwise', () => {
    const emptyPath = fs.mkdtempSync(path.join(scratch, 'bin-'));
    const missing = missingPrograms(
      [
        REDIS_SERVER,
        { candidates: [path.join(scratch, 'no-chromium')], debianPackage: 'chromium' },
        { candidates: [process.execPath], debianPackage: 'nodejs' },
        { candidates: ['kubectl'], otherwise: 'kubectl 1.27 or newer (kustomize v5) on the PATH' },
      ],
      { PATH: emptyPath },
    );
    expect(installLine(missing)).toBe(
      'The tests need programs this machine lacks: apt-get install -y redis-server chromium; ' +
        'and kubectl 1.27 or newer (kustomize v5) on the PATH.',
    );
    expect(installLine([])).toBeUndefined();
  });

  it('finds a program on the PATH only where it is executable', () => {
    const bin = fs.mkdtempSync(path.join(scratch, 'bin-'));
    fs.writeFileSync(path.join(bin, 'redis-server'), '#!/bin/sh\n', { mode: 0o644 });
    expect(missingPrograms([REDIS_SERVER], { PATH: bin })).toEqual([REDIS_SERVER]);
    fs.chmodSync(path.join(bin, 'redis-server'), 0o755);
    expect(missingPrograms([REDIS_SERVER], { PATH: bin })).toEqual([]);
  });

  it('stops at once when redis-server is missing: one line, no step run, nothing started', async () => {
    const lines: string[] = [];
    const ran = path.join(scratch, 'ran');
    const code = await runTests({
      steps: [`touch "${ran}"`],
      env: { ...bareEnv(), PATH: fs.mkdtempSync(path.join(scratch, 'bin-')) },
      programs: [REDIS_SERVER],
      defaults: { databaseUrl: TEST_DATABASE_URL, redisUrl: TEST_REDIS_URL },
      log: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines).toEqual(['The tests need programs this machine lacks: apt-get install -y redis-server.']);
    expect(fs.existsSync(ran)).toBe(false);
  });
});

describe('which Postgres and Redis the tests use', () => {
  it('uses the ones that answer, named by the variables or on the default addresses', async () => {
    await expect(planBackend(POSTGRES, { DATABASE_URL: TEST_DATABASE_URL }, 'unused')).resolves.toEqual({
      use: TEST_DATABASE_URL,
    });
    await expect(planBackend(POSTGRES, {}, TEST_DATABASE_URL)).resolves.toEqual({ use: TEST_DATABASE_URL });
    await expect(planBackend(REDIS, { REDIS_URL: TEST_REDIS_URL }, 'unused')).resolves.toEqual({
      use: TEST_REDIS_URL,
    });
    await expect(planBackend(REDIS, {}, TEST_REDIS_URL)).resolves.toEqual({ use: TEST_REDIS_URL });
  });

  it('starts its own when nothing answers on the default address', async () => {
    const port = await freePort();
    expect(await portAnswers('127.0.0.1', port)).toBe(false);
    await expect(planBackend(POSTGRES, {}, `postgres://postgres@127.0.0.1:${port}/test`)).resolves.toEqual({
      start: true,
    });
    await expect(planBackend(REDIS, {}, `redis://127.0.0.1:${port}`)).resolves.toEqual({ start: true });
  });

  it('refuses, in one line naming the variable, a server the variable names that does not answer', async () => {
    const port = await freePort();
    const refused = planBackend(
      POSTGRES,
      { DATABASE_URL: `postgres://ci:s3cret@127.0.0.1:${port}/test` },
      '',
    );
    await expect(refused).rejects.toThrow(
      `DATABASE_URL=postgres://ci:***@127.0.0.1:${port}/test does not serve the tests: connect ECONNREFUSED 127.0.0.1:${port}.`,
    );
    await expect(planBackend(REDIS, { REDIS_URL: `redis://127.0.0.1:${port}` }, '')).rejects.toThrow(
      /^REDIS_URL=redis:\/\/127\.0\.0\.1:\d+ does not serve the tests: .*ECONNREFUSED.*\.$/,
    );
  });

  it('refuses to hide what answers on the default address but does not serve the tests', async () => {
    const other = await impostor();
    try {
      for (const [backend, url] of [
        [POSTGRES, `postgres://postgres@127.0.0.1:${other.port}/test`],
        [REDIS, `redis://127.0.0.1:${other.port}`],
      ] as const) {
        const error = (await planBackend(backend, {}, url).catch((caught: unknown) => caught)) as Error;
        expect(error.name).toBe('StartupError');
        expect(error.message).toMatch(
          new RegExp(
            `^Something answers on 127\\.0\\.0\\.1:${other.port} but does not serve the tests .*: set ${backend.envName} to a ${backend.name} they may use\\.$`,
          ),
        );
      }
    } finally {
      await other.close();
    }
  });

  it('refuses a Postgres user that may not create the databases the tests make', async () => {
    const role = `uis_test_run_${randomSuffix()}`;
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'x'`);
      const url = new URL(TEST_DATABASE_URL);
      [url.username, url.password] = [role, 'x'];
      await expect(planBackend(POSTGRES, { DATABASE_URL: url.toString() }, '')).rejects.toThrow(
        /does not serve the tests: its user may not create databases\.$/,
      );
    } finally {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });
});

describe('a run where nothing answers', () => {
  const options = async (steps: string[], extra: Partial<TestRunOptions> = {}): Promise<TestRunOptions> => {
    const port = await freePort();
    return {
      steps,
      env: bareEnv(),
      programs: [REDIS_SERVER],
      defaults: {
        databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`,
        redisUrl: `redis://127.0.0.1:${port}`,
      },
      log: () => undefined,
      ...extra,
    };
  };
  let tmpdir: string | undefined;
  beforeEach(() => {
    // The run's scratch folder goes where os.tmpdir() says: here, to see that it is removed.
    tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = fs.mkdtempSync(path.join(scratch, 'tmp-'));
  });
  afterEach(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  });

  const portOf = (url: string) => Number(new URL(url).port);

  it('starts the embedded Postgres and a redis-server for its steps, and stops them after, also when a step fails', async () => {
    const found = path.join(scratch, 'found.json');
    const never = path.join(scratch, 'never');
    const code = await runTests(
      await options([`node "${CHECK_STEP}" "${found}"`, 'exit 7', `touch "${never}"`]),
    );
    expect(code).toBe(7);
    expect(fs.existsSync(never)).toBe(false);
    const { databaseUrl, redisUrl, pong } = JSON.parse(fs.readFileSync(found, 'utf8')) as Record<
      string,
      string
    >;
    expect(pong).toBe('PONG');
    expect(new URL(databaseUrl!).pathname).toBe('/test');
    expect(await portAnswers('127.0.0.1', portOf(databaseUrl!))).toBe(false);
    expect(await portAnswers('127.0.0.1', portOf(redisUrl!))).toBe(false);
    expect(fs.readdirSync(process.env.TMPDIR!)).toEqual([]);
  }, 90_000);

  it('ends the running step on SIGTERM, runs no other, and stops its servers', async () => {
    const started = path.join(scratch, 'started');
    const never = path.join(scratch, 'never');
    const stop = new AbortController();
    const lines: string[] = [];
    const run = runTests(
      await options(
        [
          `node -e "require('fs').writeFileSync('${started}', process.env.REDIS_URL); setInterval(() => {}, 1000)"`,
          `touch "${never}"`,
        ],
        { stop: stop.signal, log: (line) => lines.push(line) },
      ),
    );
    await waitFor(() => fs.existsSync(started), 'the step to start', 60_000);
    stop.abort('SIGTERM');
    expect(await run).toBe(143);
    expect(fs.existsSync(never)).toBe(false);
    expect(await portAnswers('127.0.0.1', portOf(fs.readFileSync(started, 'utf8')))).toBe(false);
    expect(lines.filter((line) => /started one of this run's own/.test(line))).toHaveLength(2);
  }, 90_000);
});
