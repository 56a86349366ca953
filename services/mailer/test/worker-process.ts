import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { MailWorkerOptions } from '../src/mail.worker';

const MAILER = path.resolve(__dirname, '..');
const REPO = path.resolve(MAILER, '../..');

/**
 * The killed worker runs the built code (`dist/test/worker-main.js`), so the build must match the
 * sources: `tsc -b` brings it up to date (a no-op after `npm run build`).
 */
export function buildMailer(): void {
  const tsc = path.join(REPO, 'node_modules/.bin/tsc');
  const result = spawnSync(tsc, ['-b', MAILER], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`tsc -b services/mailer failed:\n${result.stdout}${result.stderr}`);
}

/** A mail worker in a child process; its output is kept for failure messages and log checks. */
export class WorkerProcess {
  output = '';
  private readonly exited: Promise<void>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Starts `dist/test/worker-main.js` with only `env` (and PATH), resolving once it consumes the queue. */
  static async start(env: Record<string, string>, options: MailWorkerOptions = {}): Promise<WorkerProcess> {
    const child = spawn(
      process.execPath,
      [path.join(MAILER, 'dist/test/worker-main.js'), JSON.stringify(options)],
      { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const worker = new WorkerProcess(child);
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (!worker.output.includes('"worker ready"')) return;
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        resolve();
      };
      const onExit = () =>
        reject(new Error(`the worker process exited before it was ready:\n${worker.output}`));
      child.stdout?.on('data', onData);
      child.once('exit', onExit);
    });
    return worker;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Parsed JSON log lines with this message. */
  logged(msg: string): Record<string, unknown>[] {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.msg === msg);
  }

  /** SIGKILL: no shutdown hook runs; its sockets drop as a crashed machine's do. */
  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the worker finishes what it has and closes its connections. */
  async stop(): Promise<void> {
    if (this.alive) this.child.kill('SIGTERM');
    await this.exited;
  }
}
