/// <reference types="node" />
import { api, enterSession } from './support/api';
import { STREAM_PIXEL_COLOR } from '@uis/proto/browser';
import type { Page } from '@playwright/test';
import { capture } from './support/screenshots';
import {
  FOLLOW,
  contextFor,
  driftsOf,
  livePath,
  openLive,
  researcherVideo,
  sampleVideo,
  signUp,
  type Person,
} from './support/live-session';
import {
  expect,
  seedStreamSession,
  test,
  videoArea,
  waitUntilYouTubeReady,
  youTubeDrift,
} from './support/stream-session';
import { installFakeYouTube, youTubeControls, youTubeSnapshot } from './support/stream-youtube';
import { emailOf } from './support/users';
import { streamNotPlayedText } from '../src/i18n/en/common';
import { YOUTUBE_ERROR_TEXTS } from '../src/i18n/en/playback';

/** YT.PlayerState. */
const PLAYING = 1;
const PAUSED = 2;
const AFTER_SEEK_S = FOLLOW.nearS;

/** Worst |drift| over `samples` readings `everyMs` apart. */
async function worst(read: () => Promise<number>, samples = 6, everyMs = 250): Promise<number> {
  let largest = 0;
  for (let i = 0; i < samples; i += 1) {
    largest = Math.max(largest, Math.abs(await read()));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return largest;
}

/** The researcher allows clicks; the participant clicks the middle of the picture; the click is recorded. */
async function clickIsRecorded(desk: Page, seat: Page, sessionId: string, researcher: Person) {
  await desk.getByRole('checkbox', { name: 'Allow Participant Clicks' }).check();
  const layer = seat.getByTestId('click-layer');
  await expect(layer).toHaveClass(/allowed/);
  await layer.click();
  await expect(seat.getByTestId('click-marker')).toHaveCount(1);
  await expect
    .poll(async () => (await api('getPixels', { sessionId }, researcher.accessToken)).pixels.length)
    .toBe(1);
  const [pixel] = (await api('getPixels', { sessionId }, researcher.accessToken)).pixels;
  return pixel!;
}

test('a YouTube stream: the researcher plays, seeks and pauses with its controls, a participant follows, clicks record n/a', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [rae, pia] = await Promise.all([
    signUp(emailOf('stream-yt-rae'), 'Rae Researcher', 'researcher'),
    signUp(emailOf('stream-yt-pia'), 'Pia Participant'),
  ]);
  const sessionId = await seedStreamSession(
    rae,
    'Stream viewing',
    'https://www.youtube.com/watch?v=M7lc1UVf-VE',
  );
  const contexts = await Promise.all([rae, pia].map((person) => contextFor(browser, person)));
  for (const context of contexts) await installFakeYouTube(context);
  const [desk, seat] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desk || !seat) throw new Error('two pages');
  const measured: Record<string, number> = {};

  await test.step("both open it: YouTube's player, with controls for the researcher only, with sound for the participant past the gate", async () => {
    await enterSession(sessionId, pia.accessToken);
    for (const page of [desk, seat]) {
      await page.goto(livePath(sessionId));
      await waitUntilYouTubeReady(page);
    }
    expect(await youTubeSnapshot(desk)).toMatchObject({
      videoId: 'M7lc1UVf-VE',
      controls: true,
      muted: false,
    });
    // waitUntilYouTubeReady passed the participant's sound gate with 'I hear it'.
    await expect.poll(async () => (await youTubeSnapshot(seat)).muted).toBe(false);
    expect((await youTubeSnapshot(seat)).controls).toBe(false);
    // Its picture only shows: clicks go to the video area's click capture, never to YouTube.
    await expect(seat.locator('.stream-player iframe')).toHaveCSS('pointer-events', 'none');
  });

  await test.step('play: the participant starts too (within the sync seek threshold: YouTube cannot nudge its rate)', async () => {
    await youTubeControls(desk).getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => (await youTubeSnapshot(seat)).state, { timeout: 10_000 }).toBe(PLAYING);
    await desk.waitForTimeout(1500);
    measured.afterPlay = await worst(() => youTubeDrift(desk, seat));
    expect(measured.afterPlay).toBeLessThan(1);
  });

  await test.step("seeks with YouTube's seek bar while playing: the participant follows each", async () => {
    // A follower corrects drift under the sync's seek threshold (1 s) by nudging its rate up to 10 %, and
    // YouTube offers no such rate (it rounds 1.1 to 1): what a seek leaves, under 1 s, stays. The
    // drifts are logged; the 0.25 s is held on the HLS stream and on seeks while paused.
    for (const [index, to] of [120, 200, 60].entries()) {
      await youTubeControls(desk).getByRole('slider', { name: 'Seek' }).fill(String(to));
      await expect
        .poll(async () => Math.abs((await youTubeSnapshot(seat)).time - to), { timeout: FOLLOW.withinMs })
        .toBeLessThan(5);
      await desk.waitForTimeout(1000);
      const drift = await worst(() => youTubeDrift(desk, seat));
      measured[`afterSeek${index + 1}`] = drift;
      expect(drift).toBeLessThan(1);
      expect((await youTubeSnapshot(seat)).state).toBe(PLAYING);
    }
  });

  await test.step('pause, then a seek while paused: the participant pauses there too', async () => {
    await youTubeControls(desk).getByRole('button', { name: 'Pause' }).click();
    await expect
      .poll(async () => (await youTubeSnapshot(seat)).state, { timeout: FOLLOW.withinMs })
      .toBe(PAUSED);
    await expect.poll(async () => Math.abs(await youTubeDrift(desk, seat))).toBeLessThan(AFTER_SEEK_S);
    await youTubeControls(desk).getByRole('slider', { name: 'Seek' }).fill('300');
    await expect
      .poll(async () => (await youTubeSnapshot(seat)).time, { timeout: FOLLOW.withinMs })
      .toBeCloseTo(300, 0);
    measured.afterPausedSeek = Math.abs(await youTubeDrift(desk, seat));
    expect(measured.afterPausedSeek).toBeLessThan(AFTER_SEEK_S);
    expect((await youTubeSnapshot(seat)).state).toBe(PAUSED);
  });

  await test.step("the stream live screen at both sizes (the participant's, paused at 300 s)", async () => {
    await capture(seat, 'live-stream-youtube', videoArea(seat));
  });

  await test.step(`a click on the stream is recorded with the colour '${STREAM_PIXEL_COLOR}'`, async () => {
    const pixel = await clickIsRecorded(desk, seat, sessionId, rae);
    expect(pixel).toMatchObject({ color: STREAM_PIXEL_COLOR, name: pia.name });
    expect(pixel.x).toBeCloseTo(0.5, 1);
    expect(pixel.y).toBeCloseTo(0.5, 1);
    expect(pixel.videoTime).toBeCloseTo(300, 0);
  });

  console.log(`[live-stream] YouTube drifts (s): ${JSON.stringify(measured)}`);
  await Promise.all(contexts.map((context) => context.close()));
});

test('an HLS stream through hls.js: the researcher plays, seeks and pauses, a participant follows, clicks record n/a', async ({
  browser,
  streams,
}) => {
  test.setTimeout(180_000);
  const [ray, pax] = await Promise.all([
    signUp(emailOf('stream-hls-ray'), 'Ray Researcher', 'researcher'),
    signUp(emailOf('stream-hls-pax'), 'Pax Participant'),
  ]);
  const sessionId = await seedStreamSession(ray, 'HLS viewing', streams.hls);
  const contexts = await Promise.all([ray, pax].map((person) => contextFor(browser, person)));
  const [desk, seat] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desk || !seat) throw new Error('two pages');
  const measured: Record<string, number> = {};
  const drift = async () => (await driftsOf(desk, [seat]))[0] ?? Infinity;

  await test.step('both open it: a <video> fed by hls.js (a MediaSource), controls for the researcher only', async () => {
    await Promise.all([openLive(desk, sessionId), openLive(seat, sessionId)]);
    for (const page of [desk, seat]) {
      await expect(page.locator('.stream-player')).toHaveAttribute('data-stream-kind', 'hls');
      expect(await page.locator('video').evaluate((video: HTMLVideoElement) => video.src)).toMatch(/^blob:/);
    }
    await expect(desk.locator('video')).toHaveJSProperty('controls', true);
    await expect(seat.locator('video')).toHaveJSProperty('controls', false);
    // openLive passed the sound gate with 'I hear it'.
    await expect(seat.locator('video')).toHaveJSProperty('muted', false);
  });

  await test.step('play: the participant plays along', async () => {
    await researcherVideo.play(desk);
    await expect.poll(async () => (await sampleVideo(seat)).paused, { timeout: 10_000 }).toBe(false);
    await expect
      .poll(async () => Math.abs(await drift()), { timeout: FOLLOW.withinMs })
      .toBeLessThan(AFTER_SEEK_S);
    measured.afterPlay = await worst(drift);
  });

  await test.step(`a seek while playing: the participant is within ${AFTER_SEEK_S} s`, async () => {
    await researcherVideo.seek(desk, 12);
    await expect
      .poll(async () => (await sampleVideo(seat)).time, { timeout: FOLLOW.withinMs })
      .toBeGreaterThan(11.5);
    await expect
      .poll(async () => Math.abs(await drift()), { timeout: FOLLOW.withinMs })
      .toBeLessThan(AFTER_SEEK_S);
    // Logged, not held: on a loaded machine one sample can catch a decoder stall.
    measured.afterSeek = await worst(drift);
  });

  await test.step('pause, then a seek while paused, are followed', async () => {
    await researcherVideo.pause(desk);
    await expect.poll(async () => (await sampleVideo(seat)).paused, { timeout: FOLLOW.withinMs }).toBe(true);
    await researcherVideo.seek(desk, 5);
    await expect
      .poll(async () => (await sampleVideo(seat)).time, { timeout: FOLLOW.withinMs })
      .toBeCloseTo(5, 1);
    measured.afterPausedSeek = Math.abs(await drift());
    expect(measured.afterPausedSeek).toBeLessThan(AFTER_SEEK_S);
  });

  await test.step("a click records 'n/a' for the colour, as every stream session's (spec section 3)", async () => {
    const pixel = await clickIsRecorded(desk, seat, sessionId, ray);
    expect(pixel.color).toBe(STREAM_PIXEL_COLOR);
    expect(pixel.videoTime).toBeCloseTo(5, 0);
  });

  await test.step('the stream live screen at both sizes', async () => {
    await capture(desk, 'live-stream-hls', videoArea(desk));
  });
  console.log(`[live-stream] HLS drifts (s): ${JSON.stringify(measured)}`);
  await Promise.all(contexts.map((context) => context.close()));
});

test('a stream that cannot be played says why in the video area', async ({ browser, streams }) => {
  const researcher = await signUp(emailOf('stream-err-rex'), 'Rex Researcher', 'researcher');
  const context = await contextFor(browser, researcher);
  await installFakeYouTube(context);
  const page = await context.newPage();
  const alert = videoArea(page).getByRole('alert');

  const missing = await seedStreamSession(researcher, 'Missing playlist', `${streams.origin}/missing.m3u8`);
  await page.goto(livePath(missing));
  await expect(alert).toHaveText(
    streamNotPlayedText(
      `The HLS playlist could not be loaded from ${new URL(streams.origin).host} (HTTP 404).`,
    ),
    { timeout: 20_000 },
  );

  const gone = await seedStreamSession(
    researcher,
    'Gone video',
    'https://www.youtube.com/watch?v=unavailable',
  );
  await page.goto(livePath(gone));
  await expect(alert).toHaveText(YOUTUBE_ERROR_TEXTS[100], {
    timeout: 20_000,
  });
  await context.close();
});

test("a DASH stream (dash.js) and a direct MP4 file play in the researcher's <video>", async ({
  browser,
  streams,
}) => {
  const researcher = await signUp(emailOf('stream-kinds-rio'), 'Rio Researcher', 'researcher');
  const context = await contextFor(browser, researcher);
  const page = await context.newPage();
  for (const [kind, source, src] of [
    ['dash', streams.dash, /^blob:/],
    ['media', streams.mp4, /\/clip\.mp4$/],
  ] as const) {
    const sessionId = await seedStreamSession(researcher, `${kind} viewing`, source);
    await openLive(page, sessionId);
    await expect(page.locator('.stream-player')).toHaveAttribute('data-stream-kind', kind);
    expect(await page.locator('video').evaluate((video: HTMLVideoElement) => video.src)).toMatch(src);
    await researcherVideo.play(page);
    await expect.poll(async () => (await sampleVideo(page)).time, { timeout: 10_000 }).toBeGreaterThan(1);
    await researcherVideo.pause(page);
    await researcherVideo.seek(page, 10);
    expect((await sampleVideo(page)).time).toBeCloseTo(10, 1);
  }
  await context.close();
});
