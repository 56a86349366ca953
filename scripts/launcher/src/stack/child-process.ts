import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import type { Lifecycle } from '../lifecycle';
import { StartupError } from '../startup-error';

/**
 * Where a child's output lines go: the stack prints them with the child's name in front. `stream`
 * says which of its outputs the line came from, for a caller that reads an answer from stdout.
 */
export type LineSink = (label: string, line: string, stream?: 'stdout' | 'stderr') => void;

/** A process the stack started, and how to stop it. */
export interface Child {
  label: string;
  pid: number;
  /** Settles with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Settles once it has exited and its output has been read to the end (every line went to the sink). */
  closed: Promise<void>;
  /** The last lines it wrote, for the message when it fails. */
  lastLines(): string[];
  /** Asks it to stop (`signal`, SIGTERM by default); SIGKILL after `graceMs`. Resolves once it has exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const KEPT_LINES = 30;

/**
 * The children still running. When the stack exits without stopping them (a second Ctrl-C, a crash),
 * they are killed on the way out: being in their own process groups, nothing else would end them.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a program with its output piped, line by line, to `sink`. The child gets its own process
 * group, so the terminal's Ctrl-C reaches only the stack, which then stops its children in order
 * (`ownGroup: false` keeps it in ours, for a helper that Ctrl-C should end with us).
 */
export function startChild(input: {
  label: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  sink: LineSink;
  ownGroup?: boolean;
}): Child {
  const child: ChildProcess = spawn(input.command, input.args, {
    env: input.env,
    cwd: input.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: input.ownGroup ?? true,
  });
  running.add(child);
  const lines: string[] = [];
  const keep = (line: string, stream: 'stdout' | 'stderr' = 'stderr') => {
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
    input.sink(input.label, line, stream);
  };
  for (const [name, stream] of [
    ['stdout', child.stdout],
    ['stderr', child.stderr],
  ] as const) {
    if (stream)
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => keep(line, name));
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => {
      keep(`could not start ${input.command}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 0);
    });
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    label: input.label,
    pid: child.pid ?? -1,
    exited,
    closed,
    lastLines: () => [...lines],
    stop(signal = 'SIGTERM', graceMs = 10_000) {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
        child.kill(signal);
        const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(killer);
      })();
      return stopping;
    },
  };
}

/**
 * Live members of process group `pgid`, read from /proc: a zombie does not count, since PID 1 here
 * may not reap it, and `kill(-pgid, 0)` would still find the group while one is left.
 */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

const signalGroup = (pgid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
};

async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupMembers(pgid).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Stops a child started in its own group together with all it spawned (npm's shell, node, a server
 * its set-up left): `signal` to the whole group, SIGKILL to what is left after `graceMs`. Resolves
 * once the group is gone and the child has exited, even when the leader had ended before.
 */
export async function stopGroup(
  child: Pick<Child, 'pid' | 'exited'>,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  if (child.pid < 0) return;
  signalGroup(child.pid, signal);
  if (!(await waitGroupGone(child.pid, graceMs))) {
    signalGroup(child.pid, 'SIGKILL');
    await waitGroupGone(child.pid, 5_000);
  }
  await child.exited;
}

/** Runs a program to its end; a StartupError with its last lines when it does not exit 0. */
export async function runToEnd(input: Parameters<typeof startChild>[0]): Promise<void> {
  const child = startChild(input);
  const code = await child.exited;
  if (code !== 0) {
    throw new StartupError(
      `${input.label} failed (exit ${code}):\n${child
        .lastLines()
        .map((line) => `  ${line}`)
        .join('\n')}`,
    );
  }
}

/** Asks once whether a process is ready: resolves with an HTTP status, rejects when nothing answers. */
export type ReadinessProbe = () => Promise<number>;

/** A GET of `url` (plain HTTP) as a readiness probe. */
export const httpProbe =
  (url: string): ReadinessProbe =>
  async () =>
    (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status;

/**
 * Waits until the probe answers 200, asking again while the child runs. A StartupError with the
 * child's last lines when it exits first or is still not ready after `timeoutMs`; StopRequested
 * as soon as the lifecycle is told to stop.
 */
export async function waitUntilReady(
  child: Child,
  probe: ReadinessProbe,
  timeoutMs: number,
  lifecycle?: Lifecycle,
): Promise<void> {
  let ended: number | string | undefined;
  void child.exited.then((code) => (ended = code));
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (ended === undefined && Date.now() < deadline) {
    lifecycle?.throwIfStopRequested();
    try {
      const status = await probe();
      if (status === 200) return;
      last = `answered ${status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const why =
    ended !== undefined ? `exited (${ended})` : `was not ready within ${timeoutMs / 1000} s (${last})`;
  throw new StartupError(
    `${child.label} ${why}. Its last lines:\n${child
      .lastLines()
      .map((line) => `  ${line}`)
      .join('\n')}`,
  );
}
