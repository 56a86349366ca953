/// <reference types="node" />
import type { Browser, Page } from 'puppeteer-core';
import { livePath, type Person, type VideoSample } from '../support/live-session';
import { enterSession } from '../support/api';
import { stack } from '../support/stack-env';
import { openSignedIn } from './firefox';
import { COMMON_TEXTS, LIVE_SESSION_TITLE } from '../../src/i18n/en/common';
import { SOUND_GATE_TEXTS } from '../../src/i18n/en/live-session';

/**
 * A live session's page in Firefox (puppeteer's Page), read and driven as the Playwright specs read
 * theirs: its <video> sampled exactly as live-session.ts's sampleVideo samples one (so driftsOf
 * measures it beside Chromium pages at one instant), the chat list and box, and clicks on the video.
 * Puppeteer sends a function's text to the page: every function passed to it here is self-contained.
 */
export class FirefoxLivePage {
  /** Uncaught errors and console errors of the page, for the log. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('pageerror', (error) => this.errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(message.text());
    });
  }

  /** Opens the session's live page for `person` in a context of its own and waits until it is live. */
  static async open(firefox: Browser, person: Person, sessionId: string): Promise<FirefoxLivePage> {
    await enterSession(sessionId, person.accessToken);
    const page = await openSignedIn(firefox, stack().baseUrl, person, livePath(sessionId));
    const live = new FirefoxLivePage(page);
    await live.passSoundGateMuted();
    await live.waitUntilLive();
    return live;
  }

  /**
   * A participant's sound gate, passed without sound (the tone, 'I don't hear anything', 'Continue
   * without sound'), so the video starts muted by itself as Firefox allows without prefs: what these
   * specs check. The clicks are the page's own (not a person's gesture), which that path needs none of.
   */
  async passSoundGateMuted(timeout = 20_000): Promise<void> {
    await this.page.waitForFunction(
      () => document.querySelector('video') ?? document.querySelector('[data-testid="sound-gate"]'),
      { timeout, polling: 100 },
    );
    if (!(await this.page.$('[data-testid="sound-gate"]'))) return;
    for (const label of [
      SOUND_GATE_TEXTS.playTone,
      SOUND_GATE_TEXTS.notHeard,
      SOUND_GATE_TEXTS.continueMuted,
    ]) {
      await this.page.waitForFunction(
        (text: string) => {
          const button = [
            ...document.querySelectorAll<HTMLButtonElement>('[data-testid="sound-gate"] button'),
          ].find((candidate) => candidate.textContent?.includes(text));
          if (!button || button.getAttribute('aria-disabled') === 'true') return false;
          button.click();
          return true;
        },
        { timeout: 10_000, polling: 100 },
        label,
      );
    }
  }

  /** live-session.ts's waitUntilLive: the session's title, no 'Connecting…', and a picture to show. */
  async waitUntilLive(timeout = 20_000): Promise<void> {
    await this.page.waitForFunction(
      ({ connecting, untitled }: { connecting: string; untitled: string }) => {
        const title = document.querySelector('h1')?.textContent ?? '';
        const video = document.querySelector('video');
        return (
          title !== '' &&
          title !== untitled &&
          !document.body.innerText.includes(connecting) &&
          video !== null &&
          video.readyState >= 2
        );
      },
      { timeout, polling: 100 },
      { connecting: COMMON_TEXTS.connecting, untitled: LIVE_SESSION_TITLE },
    );
  }

  /**
   * Until the <video> shows the frame at its current time: a seek moves currentTime at once, but
   * until it ends (seeking, readyState below HAVE_CURRENT_DATA) the frame cannot be read.
   */
  async waitForFrame(timeout = 5000): Promise<void> {
    await this.page.waitForFunction(
      () => {
        const video = document.querySelector('video');
        return video !== null && !video.seeking && video.readyState >= 2;
      },
      { timeout, polling: 50 },
    );
  }

  /** live-session.ts's sampleVideo, in Firefox. */
  sampleVideo(): Promise<VideoSample> {
    return this.page.$eval('video', (video) => ({
      time: video.currentTime,
      paused: video.paused,
      rate: video.playbackRate,
      at: performance.timeOrigin + performance.now(),
    }));
  }

  /** A few of the <video>'s properties (how the page set it up). */
  videoSetup(): Promise<{ controls: boolean; muted: boolean; src: string }> {
    return this.page.$eval('video', (video) => ({
      controls: video.controls,
      muted: video.muted,
      src: video.src,
    }));
  }

  /** The stream player's kind (data-stream-kind: hls, dash, media, youtube). */
  streamKind(): Promise<string | null> {
    return this.page.$eval('.stream-player', (player) => player.getAttribute('data-stream-kind'));
  }

  /** The texts of the chat list, in order (live-session.ts's chatTexts). */
  chatTexts(): Promise<string[]> {
    return this.page.$$eval('[role="log"][aria-label="Chat messages"] .live-chat-text', (texts) =>
      texts.map((text) => text.textContent ?? ''),
    );
  }

  /** Types `text` in the chat box and sends it with Enter; resolves once the box is empty again. */
  async send(text: string): Promise<void> {
    await this.page.type('.live-chat-box', text);
    await this.page.keyboard.press('Enter');
    await this.page.waitForFunction(
      () => document.querySelector<HTMLTextAreaElement>('.live-chat-box')?.value === '',
      { polling: 100, timeout: 10_000 },
    );
  }

  /** Resolves once `text` shows on the page (a toast, a notice). */
  async waitForText(text: string, timeout = 10_000): Promise<void> {
    await this.page.waitForFunction(
      (wanted) => document.body.innerText.includes(wanted),
      { timeout, polling: 100 },
      text,
    );
  }

  /** Resolves once the page matches `selector` (a CSS selector). */
  async waitFor(selector: string, timeout = 10_000): Promise<void> {
    await this.page.waitForSelector(selector, { timeout });
  }

  /** Clicks the video at fractions x, y of the click layer (live-session-chat.spec.ts's clickVideo). */
  async clickVideo(x: number, y: number): Promise<void> {
    const layer = await this.page.waitForSelector('[data-testid="click-layer"]');
    const box = await layer?.boundingBox();
    if (!box) throw new Error('no click layer in Firefox');
    await this.page.mouse.click(box.x + box.width * x, box.y + box.height * y);
  }

  async close(): Promise<void> {
    await this.page.browserContext().close();
  }
}
