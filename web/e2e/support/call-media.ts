import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

/**
 * What the call specs read of a page's media: the RTCPeerConnections it made (the test hook: an
 * init script records each one, before the app's code runs) and whether a <video> really shows
 * frames (not just that a 'stream' event came).
 */

/** The page's own script, run before the app's in every document of the context. */
export function recordPeerConnectionsScript(): void {
  const Native = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  Object.defineProperty(window, '__callPeerConnections', { value: made });
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      made.push(this);
    }
  };
}

export async function recordPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordPeerConnectionsScript);
}

/**
 * The `enabled` of each audio track the page sends, read from the senders of its open peer
 * connections (one per call): what the far end hears, whatever the screen says.
 */
export function sentAudioScript(): boolean[] {
  const made =
    (window as unknown as { __callPeerConnections?: RTCPeerConnection[] }).__callPeerConnections ?? [];
  return made
    .filter((connection) => connection.connectionState !== 'closed')
    .flatMap((connection) => connection.getSenders())
    .filter((sender) => sender.track?.kind === 'audio')
    .map((sender) => sender.track?.enabled ?? false);
}

export const sentAudio = (page: Page): Promise<boolean[]> => page.evaluate(sentAudioScript);

/** Frames with a size have arrived: the element has data for the current frame and knows its width. */
export function showsPicture(video: HTMLVideoElement): boolean {
  return video.readyState >= 2 && video.videoWidth > 0;
}

/**
 * New frames shown within 3 s, counted up to `wanted` (requestVideoFrameCallback fires per frame
 * presented; getVideoPlaybackQuality counts nothing for a MediaStream in Firefox).
 */
export function newFrames(video: HTMLVideoElement, wanted = 3): Promise<number> {
  return new Promise((resolve) => {
    let count = 0;
    const timer = setTimeout(() => resolve(count), 3_000);
    const tick = () => {
      count += 1;
      if (count >= wanted) {
        clearTimeout(timer);
        resolve(count);
      } else video.requestVideoFrameCallback(tick);
    };
    video.requestVideoFrameCallback(tick);
  });
}

/** The <video> of the tile named `name` (a participant's name, 'Researcher' or 'You'). */
export const tileVideo = (page: Page, name: string): Locator =>
  page.getByRole('figure', { name, exact: true }).locator('video');

/**
 * The video shows a picture (readyState >= 2, videoWidth > 0), and its frames keep coming; answers
 * how long that took, in ms. A CPU the suite keeps busy makes WebRTC lower the frame rate (and a
 * picture of a call just replaced stays up, frozen, until the new one's frames come), so the frames
 * have `timeout` as well: this is about the call carrying pictures, not how fast (P14 of the bench).
 */
export async function expectReceiving(video: Locator, timeout = 30_000): Promise<number> {
  const started = Date.now();
  await expect.poll(() => video.evaluate(showsPicture), { timeout }).toBe(true);
  await expect.poll(() => video.evaluate(newFrames), { timeout }).toBe(3);
  return Date.now() - started;
}
