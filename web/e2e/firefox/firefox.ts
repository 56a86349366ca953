/// <reference types="node" />
import { TOKEN_COOKIES } from '@uis/proto/browser';
import fs from 'node:fs';
import { launch, type Browser, type Page } from 'puppeteer-core';
import { DESKTOP } from '../support/screenshots';

/**
 * Firefox for the cross-browser call check: Debian's firefox-esr, headless, driven by puppeteer-core
 * over WebDriver BiDi (Playwright drives only its own Firefox build). A missing browser fails the
 * run, as a missing Chromium does: `apt-get install -y firefox-esr` (CI installs it).
 */

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Browser> {
  if (!fs.existsSync(FIREFOX)) {
    throw new Error(
      `The cross-browser call check needs Firefox at ${FIREFOX}: apt-get install -y firefox-esr.`,
    );
  }
  return launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      // A fake camera and microphone, granted without a prompt (Chromium's --use-fake-* flags).
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
    },
  });
}

export interface SignIn {
  accessToken: string;
  refreshToken: string;
}

/**
 * A page in a browser context of its own (its own cookies: two users never share a jar), signed
 * in with `tokens` as the app keeps them (its two cookies), at `path`. `init` runs before the app's
 * code in every document (the peer-connection recorder). Close it with its context.
 */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  tokens: SignIn,
  path: string,
  init?: () => void,
): Promise<Page> {
  const context = await browser.createBrowserContext();
  const { hostname } = new URL(baseUrl);
  await context.setCookie(
    {
      name: TOKEN_COOKIES.accessToken,
      value: tokens.accessToken,
      domain: hostname,
      path: '/',
      sameSite: 'Lax',
    },
    {
      name: TOKEN_COOKIES.refreshToken,
      value: tokens.refreshToken,
      domain: hostname,
      path: '/',
      sameSite: 'Lax',
    },
  );
  const page = await context.newPage();
  await page.setViewport(DESKTOP);
  if (init) await page.evaluateOnNewDocument(init);
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/**
 * The <video> of the tile named `name` shows a picture (readyState >= 2, videoWidth > 0), and its
 * frames keep coming (call-media.ts's expectReceiving, for a puppeteer page).
 */
export async function waitForPicture(page: Page, name: string, timeout = 30_000): Promise<void> {
  const selector = `figure[aria-label="${name}"] video`;
  await page.waitForFunction(
    (css) => {
      const video = document.querySelector<HTMLVideoElement>(css);
      return Boolean(video && video.readyState >= 2 && video.videoWidth > 0);
    },
    { timeout, polling: 250 },
    selector,
  );
  // Frames keep coming (call-media.ts's newFrames, inlined: puppeteer sends the function's text).
  const frames = await page.evaluate(
    (css) =>
      new Promise<number>((resolve) => {
        const video = document.querySelector<HTMLVideoElement>(css);
        if (!video) return resolve(0);
        let count = 0;
        const timer = setTimeout(() => resolve(count), 5_000);
        const tick = () => {
          count += 1;
          if (count >= 3) {
            clearTimeout(timer);
            resolve(count);
          } else video.requestVideoFrameCallback(tick);
        };
        video.requestVideoFrameCallback(tick);
      }),
    selector,
  );
  if (frames < 3)
    throw new Error(`${name}'s video in Firefox shows a frozen picture (${frames} new frames in 5 s)`);
}
