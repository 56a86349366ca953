import { api } from './support/api';
import { capture } from './support/screenshots';
import { COMMON_TEXTS } from '../src/i18n/en/common';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../src/i18n/en/live-session';
import {
  contextFor,
  expect,
  openLive,
  researcherVideo,
  seedVideoSession,
  signUp,
  test,
} from './support/live-session';
import { emailOf } from './support/users';

/** The monitor must show a participant gone this soon after they leave. */
const GONE_WITHIN_MS = 5_000;

test("the researcher's monitor shows two participants joining, their drift, sound and tab, and one leaving", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [rhea, pat, quinn] = await Promise.all([
    signUp(emailOf('monitor-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('monitor-pat'), 'Pat Participant'),
    signUp(emailOf('monitor-quinn'), 'Quinn Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Monitored viewing' });
  const [deskContext, patContext, quinnContext] = await Promise.all([
    contextFor(browser, rhea),
    contextFor(browser, pat),
    contextFor(browser, quinn),
  ]);
  const desk = await deskContext.newPage();
  await openLive(desk, sessionId);
  const monitor = desk.locator('.live-monitor');
  await expect(monitor.getByText(COMMON_TEXTS.nobodyJoined)).toBeVisible();

  const [patPage, quinnPage] = await Promise.all([patContext.newPage(), quinnContext.newPage()]);
  await Promise.all([openLive(patPage, sessionId), openLive(quinnPage, sessionId)]);
  const patRow = monitor.getByRole('listitem', { name: 'Pat Participant, connected' });
  const quinnRow = monitor.getByRole('listitem', { name: 'Quinn Participant, connected' });
  await expect(patRow).toContainText(pat.email);
  await expect(quinnRow).toBeVisible();
  await expect(monitor.locator('summary')).toContainText('2 connected');
  // Participants see no monitor.
  await expect(patPage.locator('.live-monitor')).toHaveCount(0);

  await researcherVideo.play(desk);
  // Each participant's player follows; the monitor shows where it is and its drift, in sync soon.
  for (const row of [patRow, quinnRow]) {
    await expect(row.locator('.live-monitor-position')).toContainText('playing at');
    await expect(row.locator('.live-monitor-drift.in-sync')).toBeVisible({ timeout: 15_000 });
  }
  const drifts = await monitor.locator('.live-monitor-drift').allTextContents();
  console.log(`[live-monitor] drifts shown while playing: ${drifts.join(', ')}`);
  await capture(desk, 'live-monitor', monitor);

  // Pat turns the video's sound off, then hides the tab: the monitor says both.
  await patPage.getByRole('button', { name: LIVE_CONTROL_TEXTS.muteVideo }).click();
  await expect(patRow.locator('.live-monitor-sound.off')).toContainText(LIVE_SESSION_TEXTS.soundOff);
  await patPage.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(patRow.getByText(LIVE_SESSION_TEXTS.tabHidden)).toBeVisible();
  // And the exposure log has it all (a hidden tab sends what it gathered at once).
  const patsExposure = async () =>
    (await api('getExposureEvents', { sessionId }, rhea.accessToken)).events
      .filter((event) => event.name === pat.name)
      .map((event) => event.kind);
  await expect
    .poll(patsExposure, { timeout: 10_000 })
    .toEqual(expect.arrayContaining(['join', 'unmute', 'mute', 'hidden']));

  // Quinn closes the tab: shown as left within 5 s.
  const closedAt = Date.now();
  await quinnContext.close();
  await expect(monitor.getByRole('listitem', { name: 'Quinn Participant, left' })).toBeVisible({
    timeout: GONE_WITHIN_MS,
  });
  console.log(`[live-monitor] a closed tab shown as left after ${Date.now() - closedAt} ms`);
  await expect(monitor.locator('summary')).toContainText('1 connected, 1 left');
  await expect(patRow).toBeVisible();
  await Promise.all([deskContext.close(), patContext.close()]);
});
