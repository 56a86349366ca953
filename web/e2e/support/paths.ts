/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';

/** The repository root and web's folders, from this file's place (web/e2e/support). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const WEB_ROOT = path.join(REPO_ROOT, 'web');
/** E2E_OUTPUT_DIR: a run's own place (the benchmark's), so its server log is not another run's. */
export const OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? path.join(WEB_ROOT, 'e2e', 'output');
export const SCREENSHOTS_DIR = path.join(OUTPUT_DIR, 'screenshots');
export const DOCS_SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
/** What `npm start` runs after its build (the root `npm test` builds before the workspaces' tests). */
export const START_SCRIPT = path.join(REPO_ROOT, 'scripts', 'dist', 'launcher', 'src', 'start.js');
export const WEB_DIST_INDEX = path.join(WEB_ROOT, 'dist', 'index.html');

/**
 * Debian's Chromium and its switches, in one file for the browser tests, the benchmarks and the stack
 * test (scripts/system-tests). JSON, read when the tests run: the web build type-checks this folder
 * without anything outside web/.
 */
interface ChromiumSettings {
  executablePath: string;
  /** Headless on these machines: no sandbox, GPU, QUIC or background traffic. */
  args: string[];
  /** What a live session or call adds: fake camera and microphone without a prompt, loopback ICE, sound without a click. */
  mediaArgs: string[];
}
const chromium = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'chromium.json'), 'utf8'),
) as ChromiumSettings;
export const CHROMIUM = chromium.executablePath;
export const CHROMIUM_ARGS: readonly string[] = chromium.args;
export const CHROMIUM_MEDIA_ARGS: readonly string[] = chromium.mediaArgs;
