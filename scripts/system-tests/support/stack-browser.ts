import fs from 'node:fs';
import path from 'node:path';
import { TOKEN_COOKIES } from '@uis/proto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from '../../launcher/src/data-dir';

/**
 * A real browser on the stack's gateway, for the stack test's screens: Debian's Chromium, headless,
 * driven by playwright-core (web's, hoisted), signed in as the web app keeps a person signed in.
 */

/** Debian's Chromium and its switches as the browser tests run it (one file, web's). */
const settings = JSON.parse(
  fs.readFileSync(path.join(repoRoot(), 'web/e2e/support/chromium.json'), 'utf8'),
) as { executablePath: string; args: string[] };

export function launchChromium(): Promise<Browser> {
  // The stack's certificate is self-signed.
  return chromium.launch({
    executablePath: settings.executablePath,
    args: [...settings.args, '--ignore-certificate-errors'],
  });
}

/** A context of its own signed in as `person` on `origin`: the token cookies the app reads. */
export async function signedInContext(
  browser: Browser,
  origin: string,
  person: { accessToken: string; refreshToken: string },
): Promise<BrowserContext> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  await context.addCookies([
    { name: TOKEN_COOKIES.accessToken, value: person.accessToken, url: origin, sameSite: 'Lax' },
    { name: TOKEN_COOKIES.refreshToken, value: person.refreshToken, url: origin, sameSite: 'Lax' },
  ]);
  return context;
}

/** The page's <video>, as far as a seek needs it (this package's types have no DOM). */
interface PlayerElement {
  currentTime: number;
  addEventListener(type: 'seeked', listener: () => void, options: { once: true }): void;
}

/** Seeks the page's player as its native controls would; resolves once the element says it is done. */
export function seekVideo(page: Page, seconds: number): Promise<void> {
  return page.locator('video').evaluate(
    (video: PlayerElement, to: number) =>
      new Promise<void>((resolve) => {
        video.addEventListener('seeked', () => resolve(), { once: true });
        video.currentTime = to;
      }),
    seconds,
  );
}
