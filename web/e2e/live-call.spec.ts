import { UI_TEXTS } from '@uis/proto/browser';
import type { Page } from '@playwright/test';
import { signUpThroughApi } from './support/api';
import { expectReceiving, recordPeerConnections, sentAudio, tileVideo } from './support/call-media';
import {
  CALL_ARGS,
  callTest as test,
  chatSession,
  openLiveSession,
  scopeSession,
} from './support/call-session';
import { CHROMIUM } from './support/paths';
import { capture } from './support/screenshots';
import { expect } from './support/test';
import { emailOf } from './support/users';
import { CALL_STATUS_TEXTS, LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../src/i18n/en/live-session';

/**
 * The chat call in Chromium (fake camera and microphone): the researcher's camera reaches every
 * participant, each participant's reaches the researcher, the mute toggle is the sent track, and
 * a reload on either side gets the call back by itself.
 */

const muteButton = (page: Page) => page.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteMicrophone });
const callStatus = (page: Page) => page.getByRole('region', { name: 'Video call' }).getByRole('status');

test('a chat call: the researcher and every participant see each other; mute is the sent track; reloads call again', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { sessionId, researcher } = await chatSession(emailOf('call-ruth'), 'Ruth Lab', 'Think-aloud call');
  const pat = await signUpThroughApi(emailOf('call-pat'), 'Pat Call');
  const sam = await signUpThroughApi(emailOf('call-sam'), 'Sam Call');

  const desk = await openLiveSession(browser, researcher, sessionId, recordPeerConnections);
  const patPage = await openLiveSession(browser, pat, sessionId, recordPeerConnections);
  const samPage = await openLiveSession(browser, sam, sessionId, recordPeerConnections);

  await test.step('the researcher receives each participant’s camera, in a tile with their name', async () => {
    await expectReceiving(tileVideo(desk, 'Pat Call'));
    await expectReceiving(tileVideo(desk, 'Sam Call'));
    await expect(callStatus(desk)).toHaveText('2 participants in the call.');
    // Their own picture is shown, and muted here.
    await expectReceiving(tileVideo(desk, 'You'));
    expect(await tileVideo(desk, 'You').evaluate((video: HTMLVideoElement) => video.muted)).toBe(true);
  });

  await test.step('each participant receives the researcher’s camera', async () => {
    for (const page of [patPage, samPage]) {
      await expectReceiving(tileVideo(page, 'Researcher'));
      await expect(callStatus(page)).toHaveText(CALL_STATUS_TEXTS.inCallWithResearcher);
      expect(await tileVideo(page, 'You').evaluate((video: HTMLVideoElement) => video.muted)).toBe(true);
    }
  });

  await test.step('participants start muted: the toggle turns the sent audio track on and off', async () => {
    await expect(muteButton(patPage)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => sentAudio(patPage)).toEqual([false]);
    await muteButton(patPage).click();
    await expect(muteButton(patPage)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => sentAudio(patPage)).toEqual([true]);
    await muteButton(patPage).click();
    await expect.poll(() => sentAudio(patPage)).toEqual([false]);
    // The researcher's microphone is on, on both calls, until they mute it.
    await expect.poll(() => sentAudio(desk)).toEqual([true, true]);
    await muteButton(desk).click();
    await expect.poll(() => sentAudio(desk)).toEqual([false, false]);
    await muteButton(desk).click();
    await expect.poll(() => sentAudio(desk)).toEqual([true, true]);
  });

  await test.step('screenshots of the call, researcher and participant', async () => {
    await capture(desk, 'live-chat-researcher', desk.getByRole('region', { name: 'Video call' }));
    await capture(patPage, 'live-chat-participant', patPage.getByRole('region', { name: 'Video call' }));
  });

  const measured: Record<string, number> = {};

  await test.step('a participant who reloads gets the call back by itself', async () => {
    await patPage.reload();
    measured.participantReloadToPictureMs = await expectReceiving(tileVideo(patPage, 'Researcher'));
    // The old call (the page before the reload) is gone: one tile for Pat.
    await expect(desk.getByRole('figure', { name: 'Pat Call' })).toHaveCount(1);
    await expectReceiving(tileVideo(desk, 'Pat Call'));
    await expect(muteButton(patPage)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => sentAudio(patPage)).toEqual([false]);
  });

  await test.step('the researcher reloads: every participant calls the new page by itself', async () => {
    const reloaded = Date.now();
    await desk.reload();
    await expectReceiving(tileVideo(desk, 'Pat Call'));
    await expectReceiving(tileVideo(desk, 'Sam Call'));
    await expect(desk.getByRole('figure', { name: /Call$/ })).toHaveCount(2);
    for (const page of [patPage, samPage]) await expectReceiving(tileVideo(page, 'Researcher'));
    measured.researcherReloadToEveryPictureMs = Date.now() - reloaded;
  });

  await test.step('a second tab of one participant is a second peer in the call', async () => {
    const second = await patPage.context().newPage();
    await second.goto(patPage.url());
    await expectReceiving(tileVideo(second, 'Researcher'));
    await expect(desk.getByRole('figure', { name: 'Pat Call' })).toHaveCount(2);
    // The first tab keeps its call.
    await expectReceiving(tileVideo(patPage, 'Researcher'));
    await second.close();
    await expect(desk.getByRole('figure', { name: 'Pat Call' })).toHaveCount(1, { timeout: 20_000 });
  });

  await test.step('a participant who leaves is gone from the researcher’s page', async () => {
    await samPage.close();
    await expect(desk.getByRole('figure', { name: 'Sam Call' })).toHaveCount(0, { timeout: 20_000 });
    await expect(callStatus(desk)).toHaveText('1 participant in the call.');
  });

  await test.step('a participant taken out of the session leaves the call: their page hangs up', async () => {
    await scopeSession(sessionId, [emailOf('call-sam')], researcher);
    await expect(desk.getByRole('figure', { name: 'Pat Call' })).toHaveCount(0, { timeout: 20_000 });
    await expect(callStatus(desk)).toHaveText(CALL_STATUS_TEXTS.waitingForParticipants);
    await expect(patPage.getByRole('figure', { name: 'Researcher' }).locator('video')).toHaveCount(0);
    await expect.poll(() => sentAudio(patPage)).toEqual([]);
  });

  console.log(`[live-call] measured: ${JSON.stringify(measured)}`);
  for (const page of [desk, patPage]) await page.context().close();
});

test('a participant without a camera or microphone joins receiving only, with the toast', async ({
  browser,
  playwright,
  launchOptions,
}) => {
  test.setTimeout(120_000);
  const { sessionId, researcher } = await chatSession(emailOf('call-rhea'), 'Rhea Lab', 'No camera call');
  const noa = await signUpThroughApi(emailOf('call-noa'), 'Noa Nocam');
  const desk = await openLiveSession(browser, researcher, sessionId);

  // A Chromium of its own without the fake devices: getUserMedia finds no camera and no microphone.
  const bare = await playwright.chromium.launch({
    ...launchOptions,
    executablePath: CHROMIUM,
    args: (launchOptions.args ?? []).filter((arg) => arg !== '--use-fake-device-for-media-stream'),
  });
  expect(CALL_ARGS).toContain('--use-fake-device-for-media-stream');
  try {
    const page = await openLiveSession(bare, noa, sessionId, recordPeerConnections);
    await expect(page.getByText(UI_TEXTS.failedToGetLocalStream)).toBeVisible();
    await expect(page.getByText(/No camera or microphone was found/)).toBeVisible();
    await expectReceiving(tileVideo(page, 'Researcher'));
    await expect(muteButton(page)).toBeDisabled();
    await expect(page.getByRole('button', { name: LIVE_SESSION_TEXTS.retryMedia })).toBeVisible();
    // It sends nothing: its stand-in tracks were taken off the senders.
    await expect.poll(() => sentAudio(page)).toEqual([]);

    // The researcher sees them joined, by name, without a picture.
    const tile = desk.getByRole('figure', { name: 'Noa Nocam' });
    await expect(tile).toBeVisible();
    await expect(tile.getByText('Camera off')).toBeVisible();
  } finally {
    await bare.close();
    await desk.context().close();
  }
});
