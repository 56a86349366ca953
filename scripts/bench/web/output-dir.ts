/// <reference types="node" />
import path from 'node:path';

/**
 * The benchmark's server log, test video and results go to web/e2e/output/bench (ignored by git like
 * the rest of e2e/output), not beside the e2e's: an e2e run at the same time writes its own server.log
 * there and reads its magic links back from it. Imported by the config before e2e/support/paths.ts
 * reads it; Playwright's workers inherit it.
 */
process.env.E2E_OUTPUT_DIR ??= path.join(__dirname, '..', '..', '..', 'web', 'e2e', 'output', 'bench');
