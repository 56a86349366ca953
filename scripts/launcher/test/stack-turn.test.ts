import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@uis/kit/testing';
import { stunAnswers } from '@uis/signal';
import { Lifecycle } from '../src/lifecycle';
import { startStackTurn } from '../src/stack/turn-process';

/**
 * `npm run stack`'s TURN server: Debian's coturn started on 127.0.0.1 (CI installs it), ready when
 * it answers STUN, its URL and a secret of the run for signal, its secret kept off the command line,
 * and gone when the stack stops.
 */
describe("npm run stack's coturn", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-stack-turn-'));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('starts, answers STUN, gives signal TURN_URLS and TURN_SECRET, and stops with the stack', async () => {
    const lifecycle = new Lifecycle(() => undefined);
    const port = await freePort();
    const lines: string[] = [];
    const turn = await startStackTurn(
      { dataDir: scratch, port, sink: (_, line) => lines.push(line), log: () => undefined },
      lifecycle,
    );
    try {
      expect(turn).not.toBeNull();
      expect(turn!.env.TURN_URLS).toBe(`turn:127.0.0.1:${port}?transport=udp`);
      expect(turn!.env.TURN_SECRET).toMatch(/^[0-9a-f]{64}$/);
      expect(await stunAnswers('127.0.0.1', port)).toBe(true);
      const commandLine = fs.readFileSync(`/proc/${turn!.child.pid}/cmdline`, 'utf8');
      expect(commandLine).toContain('--use-auth-secret');
      expect(commandLine).not.toContain(turn!.env.TURN_SECRET);
      const config = path.join(scratch, 'coturn', 'turnserver.conf');
      expect(fs.statSync(config).mode & 0o077).toBe(0);
    } finally {
      await lifecycle.stopAll();
    }
    expect(await turn!.child.exited).toBeDefined();
    expect(await stunAnswers('127.0.0.1', port, 300)).toBe(false);
  }, 30_000);
});
