import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ConnectReport, LoadCommand, LoadSetup, RoundReport } from './load-protocol';

/** A chat load generator process (chat-load.ts) for one target, and its commands as calls. */
export class LoadProcess {
  private readonly answers: ((line: string) => void)[] = [];
  private readonly child: ChildProcess;
  private errors = '';

  /** `setupFile`: where the setup is written for the process (2,000 tokens are too long for its environment). */
  constructor(setup: LoadSetup, setupFile: string) {
    fs.writeFileSync(setupFile, JSON.stringify(setup));
    this.child = spawn(process.execPath, [path.join(__dirname, 'chat-load.js'), setupFile], {
      env: { PATH: process.env.PATH },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr!.on(
      'data',
      (chunk: Buffer) => (this.errors = (this.errors + chunk.toString()).slice(-4000)),
    );
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.answers.shift()?.(line));
  }

  connect(spreadMs: number): Promise<ConnectReport> {
    return this.ask({ cmd: 'connect', spreadMs });
  }

  round(sessions: number, seconds: number): Promise<RoundReport> {
    return this.ask({ cmd: 'round', sessions, seconds });
  }

  disconnect(): Promise<unknown> {
    return this.ask({ cmd: 'disconnect' });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end(`${JSON.stringify({ cmd: 'close' })}\n`);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private ask<T>(command: LoadCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error(`the load generator exited:\n${this.errors}`));
      this.child.once('exit', onExit);
      this.answers.push((line) => {
        this.child.off('exit', onExit);
        const answer = JSON.parse(line) as T & { error?: string };
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      });
      this.child.stdin!.write(`${JSON.stringify(command)}\n`);
    });
  }
}
