import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Registered in vite.config.ts `test.setupFiles`: the teardown every test file needs, once.
// Without vitest globals, testing-library does not unmount by itself.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
