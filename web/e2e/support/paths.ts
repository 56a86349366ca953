/// <reference types="node" />
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
/** Debian's Chromium and its switches: one list for the browser tests, the stack test and the benchmarks. */
export { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MEDIA_ARGS } from '../../../scripts/system-tests/support/chromium';
