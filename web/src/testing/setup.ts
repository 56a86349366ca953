import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy* and waitFor wait for what the test expects; their 1 s default is a deadline that a first
// render on a busy 2-core machine has missed (the monitor panel's took 1.6 s while a browser suite
// ran). Under vitest's 5 s per test, so a miss still names what it waited for.
configure({ asyncUtilTimeout: 4000 });

// Registered in vite.config.ts `test.setupFiles`: the teardown every test file needs, once.
// Without vitest globals, testing-library does not unmount by itself.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
