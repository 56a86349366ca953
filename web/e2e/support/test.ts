import { test as base } from '@playwright/test';
import { stack } from './stack-env';

/** Playwright's test, aimed at the `npm start` that global-setup started. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(stack().baseUrl);
  },
});

export { expect } from '@playwright/test';
