import type { Page } from '@playwright/test';
import { JOIN_PATH } from '@uis/proto/browser';
import { api } from './support/api';
import { expectAccessible } from './support/axe';
import {
  contextFor,
  expect,
  openLive,
  seedVideoSession,
  signUp,
  test,
  waitUntilLive,
} from './support/live-session';
import { capture, MOBILE } from './support/screenshots';
import { stack } from './support/stack-env';
import { emailOf } from './support/users';
import { JOIN_LANDING_TEXTS } from '../src/i18n/en/join-session';
import { LIVE_SESSION_TEXTS } from '../src/i18n/en/live-session';

/** A Prolific participant's own id: 24 hex digits, as Prolific makes them. */
const PROLIFIC_PID = '5f1a2b3c4d5e6f7a8b9c0d1e';

/** The landing page, Start, consent, the sound gate: the participant is in the live session, with sound. */
async function enterFromPanel(page: Page, token: string): Promise<void> {
  await page.goto(`${JOIN_PATH}/${token}?PROLIFIC_PID=${PROLIFIC_PID}&STUDY_ID=st1&SESSION_ID=se1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Panel viewing' })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await page.getByRole('button', { name: JOIN_LANDING_TEXTS.start }).click();
  await page.getByRole('button', { name: 'I agree' }).click();
  // The sound gate (its tone heard), then the video plays with its sound on.
  await waitUntilLive(page);
  expect(await page.locator('video').evaluate((video: HTMLVideoElement) => video.muted)).toBe(false);
}

test('a Prolific participant enters through the link on a phone without an e-mail, consents, watches, and reaches the completion URL with their PROLIFIC_PID', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const rhea = await signUp(emailOf('panel-rhea'), 'Rhea Researcher', 'researcher');
  const { sessionId } = await seedVideoSession(rhea, { title: 'Panel viewing' });
  // On the app's own origin, so no outside network is needed; the id fills the placeholder.
  await api(
    'editSessionInfo',
    { sessionId, completionUrl: `${stack().baseUrl}/sessions?pid={{PROLIFIC_PID}}` },
    rhea.accessToken,
  );
  await api(
    'setSessionConsent',
    { sessionId, text: 'I agree to take part in this study.' },
    rhea.accessToken,
  );
  const { joinLink } = await api('createJoinLink', { sessionId, maxParticipants: null }, rhea.accessToken);

  const phone = await browser.newContext({
    baseURL: stack().baseUrl,
    viewport: MOBILE,
    hasTouch: true,
    isMobile: true,
  });
  const deskContext = await contextFor(browser, rhea);
  const [page, desk] = await Promise.all([phone.newPage(), deskContext.newPage()]);
  await openLive(desk, sessionId);

  await test.step('the landing page says what will happen and asks for nothing', async () => {
    await page.goto(`${JOIN_PATH}/${joinLink.token}?PROLIFIC_PID=${PROLIFIC_PID}`);
    await expect(page.getByText(JOIN_LANDING_TEXTS.privacy)).toBeVisible();
    await expectAccessible(page, 'join landing page');
    await capture(page, 'join-landing');
    await page.setViewportSize(MOBILE);
  });

  await test.step('Start, consent, and the live session plays on the phone', async () => {
    await enterFromPanel(page, joinLink.token);
    await expect(desk.getByText(/Participant [A-Z0-9]{4}/).first()).toBeVisible();
  });

  await test.step('a reload continues where they were', async () => {
    await page.reload();
    await waitUntilLive(page);
  });

  await test.step('the end sends them to the completion URL with their own id', async () => {
    await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.endSession }).click();
    await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.yesEndSession }).click();
    await page.waitForURL(`**/sessions?pid=${PROLIFIC_PID}`, { timeout: 15_000 });
  });

  // The researcher's records name them by the pseudonym, with the panel's ids beside it.
  const { people } = await api('getSessionPeople', { sessionId }, rhea.accessToken);
  expect(people).toEqual([expect.objectContaining({ panelIds: expect.objectContaining({ PROLIFIC_PID }) })]);
  expect(people[0]!.email).toMatch(/@participant\.invalid$/);
  await Promise.all([phone.close(), deskContext.close()]);
});
