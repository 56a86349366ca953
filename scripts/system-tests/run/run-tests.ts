import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Lifecycle } from '../../launcher/src/lifecycle';
import { stopGroup } from '../../launcher/src/stack/child-process';
import { StartupError } from '../../launcher/src/startup-error';
import {
  POSTGRES,
  REDIS,
  planBackend,
  startTestPostgres,
  startTestRedis,
  withoutPassword,
  type Backend,
  type BackendPlan,
} from './backends';
import { installLine, missingPrograms, type RequiredProgram } from './required-programs';

/** How long a step may take to end after the signal is passed on, before it is killed. */
const STEP_STOP_GRACE_MS = 15_000;

export interface TestRunOptions {
  /** Shell commands, run in turn until one fails. */
  steps: string[];
  env: NodeJS.ProcessEnv;
  programs: RequiredProgram[];
  /** Where the tests look when DATABASE_URL / REDIS_URL are unset (kit's testing defaults). */
  defaults: { databaseUrl: string; redisUrl: string };
  log: (message: string) => void;
  /** Aborted (reason: the signal's name) on Ctrl-C or SIGTERM: the running step's group gets that signal, no further step starts. */
  stop?: AbortSignal;
}

/** A step's exit code, or 128 + the signal's number when a signal ended it (as a shell says). */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0);
}

function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pgid) process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}

/**
 * A step runs in a process group of its own, so a signal reaches everything it started (npm, jest,
 * the browsers): the terminal's Ctrl-C reaches only this process, which passes it on to the group.
 */
async function runStep(step: string, env: NodeJS.ProcessEnv, stop?: AbortSignal): Promise<number> {
  const child = spawn(step, { shell: true, stdio: ['ignore', 'inherit', 'inherit'], env, detached: true });
  const exited = new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(exitCodeOf(code, signal)));
  });
  // A forced exit of this process (Ctrl-C twice) must not leave the tests running on their own.
  const killOnExit = () => signalGroup(child.pid, 'SIGKILL');
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  const forward = () => {
    const signal = typeof stop?.reason === 'string' ? (stop.reason as NodeJS.Signals) : 'SIGTERM';
    stopping = stopGroup({ pid: child.pid ?? -1, exited }, signal, STEP_STOP_GRACE_MS);
  };
  stop?.addEventListener('abort', forward, { once: true });
  const code = await exited;
  stop?.removeEventListener('abort', forward);
  process.off('exit', killOnExit);
  // The shell may end before what it started: the servers stop only once the whole group has.
  await stopping;
  return code;
}

const described = (backend: Backend, plan: BackendPlan, url: string) =>
  'use' in plan
    ? `${backend.name}: ${withoutPassword(url)}`
    : `${backend.name}: nothing answered where the tests look by default, started one of this run's own at ${withoutPassword(url)}`;

/**
 * `npm test`'s frame: says at once what is missing (one line), starts Postgres and Redis when none
 * answers, runs the steps with DATABASE_URL and REDIS_URL naming the ones in use, stops what it
 * started (also when a step fails or the run is interrupted). Resolves with the exit code.
 */
export async function runTests(options: TestRunOptions): Promise<number> {
  const { env, log, stop } = options;
  const missing = installLine(missingPrograms(options.programs, env));
  if (missing) {
    log(missing);
    return 1;
  }
  const lifecycle = new Lifecycle(log);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-test-run-'));
  lifecycle.onStop('the run’s scratch folder', () => fs.rmSync(scratch, { recursive: true, force: true }));
  try {
    const [postgresPlan, redisPlan] = await Promise.all([
      planBackend(POSTGRES, env, options.defaults.databaseUrl),
      planBackend(REDIS, env, options.defaults.redisUrl),
    ]);
    // Both settle before a failure is thrown, so the stop below finds whatever the other started.
    const [postgres, redis] = await Promise.allSettled([
      'use' in postgresPlan ? postgresPlan.use : startTestPostgres(scratch, log, lifecycle),
      'use' in redisPlan ? redisPlan.use : startTestRedis(scratch, env, lifecycle),
    ]);
    if (postgres.status === 'rejected') throw postgres.reason;
    if (redis.status === 'rejected') throw redis.reason;
    const [databaseUrl, redisUrl] = [postgres.value, redis.value];
    log(described(POSTGRES, postgresPlan, databaseUrl));
    log(described(REDIS, redisPlan, redisUrl));
    const stepEnv = { ...env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl };
    for (const step of options.steps) {
      if (stop?.aborted) return 130;
      const code = await runStep(step, stepEnv, stop);
      if (code !== 0) return code;
    }
    return stop?.aborted ? 130 : 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    log(error.message);
    return 1;
  } finally {
    await lifecycle.stopAll();
  }
}
