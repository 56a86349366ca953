import { DEFAULT_TEST_DATABASE_URL, DEFAULT_TEST_REDIS_URL } from '@uis/kit/testing';
import { requiredPrograms } from './required-programs';
import { runTests } from './run-tests';

/**
 * `npm test`: `node scripts/dist/system-tests/run/main.js '<step>' '<step>' ...` runs the steps (lint,
 * build, every workspace's tests) with a Postgres and a Redis, started here when none answers.
 */

const log = (message: string) => console.error(`[test] ${message}`);
const stop = new AbortController();

for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(name, () => {
    if (stop.signal.aborted) {
      // Postgres and Redis are stopped on the way out by their 'exit' handlers.
      log(`${name} again: exiting now.`);
      process.exit(130);
    }
    log(`${name}: stopping the tests, then the servers this run started (again to force)...`);
    stop.abort(name);
  });
}

runTests({
  steps: process.argv.slice(2),
  env: process.env,
  programs: requiredPrograms(process.env),
  defaults: { databaseUrl: DEFAULT_TEST_DATABASE_URL, redisUrl: DEFAULT_TEST_REDIS_URL },
  log,
  stop: stop.signal,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(
      `Unexpected error (a bug, please report it): ${error instanceof Error ? error.stack : String(error)}`,
    );
    process.exit(1);
  },
);
