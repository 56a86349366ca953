/// <reference types="node" />
import './output-dir';
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS, OUTPUT_DIR } from '../e2e/support/paths';
import { DESKTOP } from '../e2e/support/screenshots';

/**
 * `npm run bench -w web`: the live-drift and call-reconnect benchmarks, against the `npm start` that the e2e's global
 * setup starts (fresh data folder, free ports), with the e2e's support for sign-ups, sessions and
 * measurements. A config of its own so that `npm test` never runs it and it never runs the specs.
 * bench/package.json makes these files CommonJS, as e2e/package.json does for the same reason.
 */

if (!fs.existsSync(CHROMIUM)) {
  throw new Error(`The benchmark needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium.`);
}

export default defineConfig({
  testDir: '.',
  testMatch: ['live-drift.ts', 'call-reconnect.ts'],
  outputDir: path.join(OUTPUT_DIR, 'test-results'),
  globalSetup: '../e2e/global-setup.ts',
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
      // The e2e's switches, and autoplay without a gesture as in the live specs (no camera: video sessions have no call).
      args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
    },
  },
});
