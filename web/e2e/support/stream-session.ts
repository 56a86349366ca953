/// <reference types="node" />
import { api } from './api';
import { COMMON_TEXTS } from '../../src/i18n/en/common';
import { expect, type Page } from '@playwright/test';
import { test as liveTest, passSoundGate, type Person } from './live-session';
import { startStreamServer, type StreamServer } from './stream-files';
import { youTubeFrame, youTubeSnapshot, type YouTubeSnapshot } from './stream-youtube';

/**
 * What the stream specs add to the live specs' support (live-session.ts: its browser with autoplay
 * allowed, people, contexts, <video> sampling): a stream session seeded through the API, real
 * streams served for the worker, and readings of a page's YouTube player.
 */

/** The live specs' test with the HLS, DASH and MP4 streams served for the worker (made once per worker). */
export const test = liveTest.extend<object, { streams: StreamServer }>({
  streams: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startStreamServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';

/** A stream session of `researcher`'s playing `source`, scoped to Everyone (the default), opened (live). */
export async function seedStreamSession(researcher: Person, title: string, source: string): Promise<string> {
  const token = researcher.accessToken;
  const { group } = await api('createGroup', { title: `${title} group` }, token);
  const { session } = await api('createSession', { groupId: group.group_id }, token);
  await api(
    'editSessionInfo',
    { sessionId: session.session_id, title, type: 'stream', source, state: 'live' },
    token,
  );
  return session.session_id;
}

/** The page's video area (the live page's section). */
export const videoArea = (page: Page) => page.getByRole('region', { name: 'Video' });

/** Waits until the page's YouTube player is ready: the page has a player (no loading text) and the fake is cued. */
export async function waitUntilYouTubeReady(page: Page): Promise<void> {
  await expect(page.getByText(COMMON_TEXTS.connecting)).toHaveCount(0, { timeout: 20_000 });
  await passSoundGate(page);
  await youTubeFrame(page);
  await expect(videoArea(page).getByText(COMMON_TEXTS.loadingVideo)).toHaveCount(0, { timeout: 20_000 });
}

const positionAt = (
  sample: { time: number; at: number; state?: number; paused?: boolean; rate: number },
  at: number,
) =>
  sample.state === 1 || sample.paused === false
    ? sample.time + ((at - sample.at) / 1000) * sample.rate
    : sample.time;

/** The participant's YouTube position minus the researcher's, at one instant, in seconds. */
export async function youTubeDrift(researcher: Page, participant: Page): Promise<number> {
  const [lead, follower] = await Promise.all([youTubeSnapshot(researcher), youTubeSnapshot(participant)]);
  const at = Math.max(lead.at, follower.at);
  return positionAt(follower, at) - positionAt(lead, at);
}

export type { YouTubeSnapshot };
