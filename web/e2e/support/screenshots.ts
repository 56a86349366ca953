/// <reference types="node" />
import type { Locator, Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { DOCS_SCREENSHOTS_DIR, SCREENSHOTS_DIR } from './paths';

/** The two layouts every screen is shown in: the spec's default size and a phone (mobile: smaller side < 768). */
export const DESKTOP = { width: 1200, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/**
 * `npm run screenshots -w web` sets it: the desktop shots then replace the README's in
 * docs/screenshots/<screen>.png, and the live screens' phone shots (whose layout differs most) go
 * beside them as <screen>-mobile.png.
 */
const updateDocs = process.env.UPDATE_SCREENSHOTS === '1';
const MOBILE_IN_DOCS = /^live-/;

/** Waits until the page has laid out its current size (fonts loaded, React re-rendered). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    // Two frames: React re-renders on resize, then the browser lays the result out.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * Shoots the page as it is at 1200x800 and again at 390x844 (screen size follows the viewport in
 * Chromium, so the app's mobile rules apply), into e2e/output/screenshots/<screen>-{desktop,mobile}.png,
 * then returns to the desktop size. `subject`: what the shot is about, scrolled into view on the phone
 * where the stacked layout puts it below the fold.
 */
export async function capture(page: Page, screen: string, subject?: Locator): Promise<void> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  // No hover state from the last click in the picture.
  await page.mouse.move(0, 0);
  const shoot = async (layout: string) => {
    await settle(page);
    const file = path.join(SCREENSHOTS_DIR, `${screen}-${layout}.png`);
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    return file;
  };
  await page.setViewportSize(DESKTOP);
  const desktop = await shoot('desktop');
  await page.setViewportSize(MOBILE);
  if (subject) await subject.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const mobile = await shoot('mobile');
  await page.setViewportSize(DESKTOP);
  await settle(page);
  if (updateDocs) {
    fs.mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
    fs.copyFileSync(desktop, path.join(DOCS_SCREENSHOTS_DIR, `${screen}.png`));
    if (MOBILE_IN_DOCS.test(screen)) {
      fs.copyFileSync(mobile, path.join(DOCS_SCREENSHOTS_DIR, `${screen}-mobile.png`));
    }
  }
}
