/// <reference types="node" />
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS, OUTPUT_DIR } from './support/paths';
import { DESKTOP } from './support/screenshots';

// Debian's Chromium, never a downloaded browser: a missing one fails the run, it does not skip it.
if (!fs.existsSync(CHROMIUM)) {
  throw new Error(
    `The e2e tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it).`,
  );
}

/** Specs that make no session a participant could see: they run before the others. */
const ACCOUNT_SPECS = /\/(auth|participant)\.spec\.ts$/;
/**
 * Specs whose pages play video or carry a call in three or four browsers at once and check how they
 * follow one another: run one at a time (beside one spec of the others), so that two of them never
 * starve each other of the two cores. `npm run e2e:timing -w web -- --repeat-each 3` runs only these.
 */
const TIMING_SPECS =
  /\/(live-session|live-session-firefox|live-stream|live-call|live-call-firefox|live-call-relay|live-monitor)\.spec\.ts$/;

// Here rather than in web/ so that web/e2e/tsconfig.json covers it (type checks and type-aware lint).
// e2e/package.json makes these files CommonJS: they import proto's sources, which are CommonJS, and
// an ES module cannot see the named exports of a transpiled `export *`.
export default defineConfig({
  testDir: '.',
  outputDir: path.join(OUTPUT_DIR, 'test-results'),
  globalSetup: './global-setup.ts',
  // Every test signs up users of its own, so tests run side by side against the one server.
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // A participant sees every session scoped to Everyone, whoever made it: the participant's list
  // (and its screenshot) is only the test's own while no researcher test has made one yet.
  projects: [
    { name: 'accounts', testMatch: ACCOUNT_SPECS },
    { name: 'studies', testIgnore: [ACCOUNT_SPECS, TIMING_SPECS], dependencies: ['accounts'] },
    { name: 'live', testMatch: TIMING_SPECS, dependencies: ['accounts'], workers: 1 },
  ],
  use: {
    browserName: 'chromium',
    viewport: DESKTOP,
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
    },
  },
});
