import type { Page } from '@playwright/test';

/**
 * Holds the real answers to requests matching `url` back until the returned release() is called,
 * so a screen that shows while waiting can be looked at (nothing is faked: the request then goes
 * through unchanged).
 */
export async function holdAnswers(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
