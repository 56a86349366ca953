import { ConfigError } from '@uis/kit';
import { Lifecycle, StopRequested } from './lifecycle';
import { StartupError } from './startup-error';

/** A clear line for what the person can fix; the stack only for what is a bug of ours. */
export function describeFailure(error: unknown): string {
  if (error instanceof StartupError || error instanceof ConfigError) return error.message;
  return `Unexpected error (a bug, please report it):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

export interface CommandOptions {
  /** The log prefix and the command's name: `[start] npm start failed: ...`. */
  tag: string;
  command: string;
  /** How long stopping may take before the process exits anyway. */
  forceExitAfterMs: number;
  /** Said when a second signal exits at once (what is left running, if anything). */
  forcedExitNote?: string;
  /**
   * Starts what the command runs (registered with `lifecycle`) and settles when it should stop:
   * undefined after a stop was requested, or the reason something it started failed.
   */
  run: (lifecycle: Lifecycle) => Promise<string | undefined>;
}

/**
 * The life of a command run from a terminal (`npm start`, `npm run stack`): what it writes is its
 * user's only (umask 077); Ctrl-C, SIGTERM or SIGHUP stops what it started in reverse order, and a
 * second one exits at once; a failure is one clear line; a stop that takes too long exits anyway.
 */
export async function runCommand({ tag, command, forceExitAfterMs, forcedExitNote, run }: CommandOptions) {
  const log = (message: string) => console.log(`[${tag}] ${message}`);
  process.umask(0o077);
  const lifecycle = new Lifecycle(log);
  let exitCode = 0;
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      if (lifecycle.isStopRequested) {
        console.error(
          `\n[${tag}] ${name} again: exiting now${forcedExitNote ? ` (${forcedExitNote})` : ''}.`,
        );
        process.exit(130);
      }
      console.log(`\n[${tag}] ${name}: stopping (press Ctrl-C again to force)...`);
      lifecycle.requestStop(name);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error(`[${tag}] ${describeFailure(error)}`);
    exitCode = 1;
    lifecycle.requestStop('uncaughtException');
  });
  try {
    const failed = await run(lifecycle);
    if (failed) {
      console.error(`[${tag}] ${failed}: stopping the rest.`);
      exitCode = 1;
    }
  } catch (error) {
    // After Ctrl-C, a step that failed because the terminal's SIGINT also hit its child is no news.
    if (!(error instanceof StopRequested) && !lifecycle.isStopRequested) {
      console.error(`\n[${tag}] ${command} failed: ${describeFailure(error)}`);
      exitCode = 1;
    }
  }
  setTimeout(() => {
    console.error(`[${tag}] Stopping took too long: exiting anyway.`);
    process.exit(1);
  }, forceExitAfterMs).unref();
  await lifecycle.stopAll();
  if (exitCode === 0) log('Stopped.');
  process.exit(exitCode);
}
