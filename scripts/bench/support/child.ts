import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startChild, stopGroup, type Child, type LineSink } from '../../launcher/src/stack/child-process';

/**
 * The processes the bench runs, all started by the stack's startChild (scripts/launcher/src/stack/child-process.ts)
 * and, when in a group of their own, stopped with its stopGroup: the other packages' own benchmarks
 * and `npm` (P8..P11), and the bench's own helpers (load generators, the plain baseline server, P6
 * and P7): node scripts compiled next to this one, given their parameters as JSON in BENCH_INPUT,
 * answering JSON on stdout.
 */

// ---- Programs in a process group of their own --------------------------------------------------

export { stopGroup };

/** A child leading a process group of its own, so a stop (stopGroup) reaches what it spawned too. */
export interface GroupChild extends Child {
  running(): boolean;
  /** The last of its output, stdout and stderr together. */
  tail(): string;
  /** Called with each line of output as it arrives. */
  onLine(listener: (line: string) => void): void;
}

const TAIL_CHARS = 6_000;

export function spawnGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): GroupChild {
  let tail = '';
  let running = true;
  const listeners: ((line: string) => void)[] = [];
  const child = startChild({
    label: path.basename(command),
    command,
    args,
    ...options,
    sink: (_label, line) => {
      tail = (tail + line + '\n').slice(-TAIL_CHARS);
      for (const listener of listeners) listener(line);
    },
  });
  void child.exited.then(() => (running = false));
  return {
    ...child,
    running: () => running,
    tail: () => tail,
    onLine: (listener) => listeners.push(listener),
  };
}

export interface Run {
  /** The exit code, or the name of the signal that ended it. */
  code: number | string;
  seconds: number;
  tail: string;
}

/**
 * Runs a command to its end: exit code, seconds, output. Its whole group is killed after `limitMs`
 * (then it throws) or on error.
 */
export async function runLimited(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; limitMs: number },
): Promise<Run> {
  const began = performance.now();
  const child = spawnGroup(command, args, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child, 'SIGTERM', 5_000);
  }, options.limitMs);
  try {
    const code = await child.exited;
    if (timedOut) {
      throw new Error(
        `${path.basename(command)} ${args.join(' ')} did not end within ${options.limitMs / 1000} s`,
      );
    }
    return { code, seconds: (performance.now() - began) / 1000, tail: child.tail() };
  } finally {
    clearTimeout(timer);
    // What the leader left behind (a server its setup started) goes too.
    await stopGroup(child, 'SIGTERM', 5_000);
  }
}

/** The environment without npm's own (`npm run bench` exports npm_config_workspaces and the like). */
export function withoutNpmEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('npm_')));
}

/**
 * Runs another package's benchmark or check (node with `args`, in `cwd`, without npm's environment)
 * that writes its figures as JSON to the file named by BENCH_RESULT; the figures, undefined when it
 * wrote none, and how it ended.
 */
export async function runForFigures<T>(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; resultFile: string; limitMs: number },
): Promise<Run & { figures: T | undefined }> {
  const { resultFile } = options;
  const run = await runLimited(process.execPath, args, {
    cwd: options.cwd,
    env: { ...withoutNpmEnv(), ...options.env, BENCH_RESULT: resultFile },
    limitMs: options.limitMs,
  });
  const figures = fs.existsSync(resultFile)
    ? (JSON.parse(fs.readFileSync(resultFile, 'utf8')) as T)
    : undefined;
  return { ...run, figures };
}

// ---- The bench's helper processes ----------------------------------------------------------------

/** A compiled script of the bench by its path under scripts/dist/bench ("rest/load.js"). */
export const benchScript = (relative: string): string => path.join(__dirname, '..', relative);

const INPUT_VARIABLE = 'BENCH_INPUT';

/** Inside a helper process: the parameters its parent gave. */
export const inputOf = <T>(): T => JSON.parse(process.env[INPUT_VARIABLE] ?? 'null') as T;

/** A helper in our own process group (Ctrl-C ends it with the bench), its output lines to `sink`. */
function startHelper(
  script: string,
  input: unknown,
  env: Record<string, string>,
  nodeArgs: string[],
  sink: LineSink,
): Child {
  return startChild({
    label: path.basename(script),
    command: process.execPath,
    args: [...nodeArgs, script],
    env: { PATH: process.env.PATH ?? '', ...env, [INPUT_VARIABLE]: JSON.stringify(input) },
    sink,
    ownGroup: false,
  });
}

/** Runs a helper to its end and parses its stdout; killed (and failed) past `timeoutMs`. */
export async function runJson<T>(script: string, input: unknown, timeoutMs: number): Promise<T> {
  let stdout = '';
  let stderr = '';
  const child = startHelper(script, input, {}, [], (_label, line, stream) => {
    if (stream === 'stdout') stdout += `${line}\n`;
    else stderr += `${line}\n`;
  });
  const timer = setTimeout(() => void child.stop('SIGKILL'), timeoutMs);
  const code = await child.exited;
  await child.closed;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${path.basename(script)} ended (${code}): ${stderr.trim().slice(-500)}`);
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`${path.basename(script)} answered no JSON: ${stdout.slice(0, 200)}`);
  }
}

export interface HelperServer {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts a helper server; it prints {"port": n} once it listens. */
export async function startHelperServer(
  script: string,
  input: unknown,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<HelperServer> {
  let stderr = '';
  let announce: (line: string) => void = () => undefined;
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const child = startHelper(script, input, env, nodeArgs, (_label, line, stream) => {
    if (stream === 'stdout') announce(line);
    else stderr += `${line}\n`;
  });
  const line = await Promise.race([
    announced,
    child.exited.then(async (code) => {
      await child.closed;
      throw new Error(`${path.basename(script)} exited (${code}): ${stderr.trim().slice(-500)}`);
    }),
  ]);
  const { port } = JSON.parse(line) as { port: number };
  return { pid: child.pid, url: `http://127.0.0.1:${port}`, stop: () => child.stop('SIGTERM') };
}
