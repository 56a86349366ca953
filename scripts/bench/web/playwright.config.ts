/// <reference types="node" />
import './output-dir';
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM, OUTPUT_DIR } from '../../../web/e2e/support/paths';
import { DESKTOP } from '../../../web/e2e/support/screenshots';
import { BENCH_CHROMIUM_ARGS } from './browser';

/**
 * `npm run bench:web -w scripts`: the live-drift and call-reconnect benchmarks, against the `npm start` that the e2e's global
 * setup starts (fresh data folder, free ports), with the e2e's support for sign-ups, sessions and
 * measurements. A config of its own so that `npm test` never runs it and it never runs the specs.
 */

if (!fs.existsSync(CHROMIUM)) {
  throw new Error(`The benchmark needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium.`);
}

export default defineConfig({
  testDir: '.',
  testMatch: ['live-drift.ts', 'call-reconnect.ts'],
  outputDir: path.join(OUTPUT_DIR, 'test-results'),
  globalSetup: '../../../web/e2e/global-setup.ts',
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // The benchmark sets its own, from its settings.
  timeout: 600_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: DESKTOP,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [...BENCH_CHROMIUM_ARGS],
    },
  },
});
