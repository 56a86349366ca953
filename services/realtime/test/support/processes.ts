import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, waitFor } from '@uis/kit/testing';

/** The repository's root (these helpers also run built, from dist/, one level deeper). */
export const REPO = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && 'workspaces' in (JSON.parse(fs.readFileSync(manifest, 'utf8')) as object))
      return dir;
  }
  throw new Error(`no repository root above ${__dirname}`);
})();

class ExitedEarly extends Error {
  constructor(name: string) {
    super(`${name} exited before it was ready`);
  }
}

/** `check`, with a rejection counting as "not yet", except ExitedEarly, which ends the wait. */
const untilExited = (check: () => Promise<boolean>) => (): Promise<boolean> =>
  check().catch((error: unknown) => (error instanceof ExitedEarly ? Promise.reject(error) : false));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A child process the test can kill for real; its output is kept for a failure message. */
export class ChildService {
  output = '';

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: no shutdown hooks, no goodbyes; its connections drop as a crashed machine's do. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await exited;
  }
}

/**
 * The replica-kill test runs the built service (`node dist/src/main.js`), as production does, so
 * the build must match the sources: `tsc -b` brings it up to date (a no-op after `npm run build`).
 */
export function buildRealtime(): void {
  const tsc = path.join(REPO, 'node_modules/.bin/tsc');
  const result = spawnSync(tsc, ['-b', path.join(REPO, 'services/realtime')], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`tsc -b services/realtime failed:\n${result.stdout}${result.stderr}`);
}

/** `npm start -w services/realtime` with this env, listening on `port`. */
export function startRealtimeProcess(env: Record<string, string>, port: number): Promise<ChildService> {
  return startServiceProcess('realtime', env, port);
}

/** A built service (`node services/<name>/dist/src/main.js`) on `port`, once its /ready answers. */
export async function startServiceProcess(
  name: string,
  env: Record<string, string>,
  port: number,
): Promise<ChildService> {
  const child = spawn(process.execPath, [path.join(REPO, `services/${name}/dist/src/main.js`)], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = new ChildService(child);
  await waitFor(
    untilExited(async () => {
      if (!service.alive) return Promise.reject(new ExitedEarly(name));
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      return res.ok;
    }),
    `the ${name} process`,
    20_000,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${service.output}`);
  });
  return service;
}

/**
 * A redis-server of the test's own (never the shared one on 6379, which other tests use), with no
 * persistence: a restart starts empty, the harshest case for the adapter and the room state.
 */
export class RedisServer {
  private process: ChildService | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async restart(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.process = new ChildService(child);
    await waitFor(() => accepts(this.port), `redis-server on ${this.port}`, 5000);
  }

  /** SIGSTOP: connections stay open but nothing answers, as on a frozen or partitioned host. */
  freeze(): void {
    this.process?.child.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.child.kill('SIGCONT');
  }

  /** SIGKILL: whatever it held is gone. */
  async kill(): Promise<void> {
    await this.process?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    this.thaw();
    await this.process?.kill('SIGTERM');
  }
}
