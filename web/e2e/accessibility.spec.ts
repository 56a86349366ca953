import { SCREEN_TEXTS, UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import type { Page } from '@playwright/test';
import { accessTokenOf, api, enterSession } from './support/api';
import { holdAnswers } from './support/hold-answer';
import { expectAccessible } from './support/axe';
import { expectReceiving, tileVideo } from './support/call-media';
import { chatSession, openLiveSession } from './support/call-session';
import { addSession, createGroup, openSession } from './support/dashboard';
import {
  chatLog,
  contextFor,
  livePath,
  openLive,
  researcherVideo,
  sampleVideo,
  seedVideoSession,
  signUp,
} from './support/live-session';
import { capture } from './support/screenshots';
import { expect, seedStreamSession, test, videoArea } from './support/stream-session';
import { emailOf, requestMagicLink, signUpResearcher } from './support/users';
import { userTypeOptionName } from '../src/features/sign-in/user-type-option';
import { SIGN_IN_TEXTS } from '../src/i18n/en/sign-in';
import { EDITOR_TEXTS, REACTION_ICON_TEXTS } from '../src/i18n/en/editor';
import { ACCOUNT_TEXTS } from '../src/i18n/en/account';

/**
 * Every screen checked with axe-core against WCAG 2.1 A and AA (support/axe.ts): signed out, the
 * researcher's and the participant's screens, and the live session of each type, for the researcher
 * and a participant. The live screens are also shot here for the README, in the state they are
 * checked in. Keyboard use of the live screen is live-session-chat.spec.ts's.
 *
 * The stream spec's test: the live specs' browser (fake camera and microphone, autoplay) and the
 * served HLS stream; the other screens do not mind either.
 */

const ACTIONS = [
  { name: 'Applause', icon: 'celebration', type: 'outlined', color: '#e91e63' },
  { name: 'Confused', icon: 'help', type: 'round', color: '#3557d4' },
] as const;

/** Sends a chat message with the box and waits until it is listed. */
async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await expect(chatLog(page).getByText(text)).toBeVisible();
}

/**
 * The researcher pauses at `seconds` and the participant is there too: the shot then shows a frame
 * that has arrived, the same from run to run.
 */
async function holdAt(desk: Page, seat: Page, seconds: number): Promise<void> {
  await researcherVideo.pause(desk);
  await researcherVideo.seek(desk, seconds);
  await expect.poll(async () => (await sampleVideo(seat)).paused).toBe(true);
  await expect.poll(async () => (await sampleVideo(seat)).time).toBeCloseTo(seconds, 1);
}

/** No focus ring of the last message typed in the shot. */
const blur = (page: Page) =>
  page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
  );

test('signed out: login, sign-up and the auth callback', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: SIGN_IN_TEXTS.enter })).toBeVisible();
  await expectAccessible(page, 'login');

  await page.getByRole('button', { name: SIGN_IN_TEXTS.enter }).click();
  await expect(page.getByText(VALIDATION_TEXTS.loginEmail)).toBeVisible();
  await expectAccessible(page, 'login with an empty e-mail');

  const link = await requestMagicLink(page, emailOf('axe-login'));
  await expectAccessible(page, 'login, link sent');

  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: SCREEN_TEXTS.selectUserType })).toBeVisible();
  await expectAccessible(page, 'sign-up: user type');
  await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
  await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
  await expect(page.getByText(VALIDATION_TEXTS.signupName)).toBeVisible();
  await expectAccessible(page, 'sign-up with empty fields');

  // The callback's screen while the link is checked: its answer is held back until axe has run.
  const release = await holdAnswers(page, '**/getUserTokens?*');
  await page.goto(link);
  await expect(page.getByText(SCREEN_TEXTS.verifyingLogin)).toBeVisible();
  await expectAccessible(page, 'auth callback');
  release();
  await expect(page).toHaveURL(/\/signup$/);
  await expectAccessible(page, 'sign-up after the magic link');

  // A failed callback returns to the login screen with a toast.
  await page.goto('/authcallback?token=abc');
  await expect(page.getByText(UI_TEXTS.authenticationFailed)).toBeVisible();
  await expectAccessible(page, 'login with a toast');
});

test("the researcher's screens: dashboard, session editor, pickers, records; the participant's sessions", async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpResearcher(page, emailOf('axe-ruth'), 'Ruth Access');
  await expect(page.getByText(SCREEN_TEXTS.createGroupFirst)).toBeVisible();
  await expectAccessible(page, 'dashboard, empty');

  await createGroup(page);
  await addSession(page);
  await addSession(page);
  await expectAccessible(page, 'dashboard with a group and sessions');

  await page.getByRole('button', { name: ACCOUNT_TEXTS.deleteAccount }).click();
  await expect(page.getByRole('button', { name: ACCOUNT_TEXTS.deleteConfirm })).toBeVisible();
  await expectAccessible(page, 'delete account dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: ACCOUNT_TEXTS.deleteConfirm })).toBeHidden();

  const sessionId = await openSession(page, 'New session');
  const token = await accessTokenOf(context);
  const participant = await signUp(emailOf('axe-pia'), 'Pia Access');
  for (const action of ACTIONS) await api('addAction', { sessionId, ...action }, token);
  await api('addPrompt', { sessionId, time: '00:00:05', duration: 3, prompt: 'What do you see?' }, token);
  // Opened (the editor's Open now), so the participant may write before the live page is open; they
  // took part (enterSession), so the researcher's Everyone sessions are in their list.
  await api('editSessionInfo', { sessionId, state: 'live' }, token);
  await enterSession(sessionId, participant.accessToken);
  await api('addMessage', { sessionId, message: 'Welcome, everyone' }, token);
  await api('addMessage', { sessionId, message: 'Hello' }, participant.accessToken);
  await api('addPixel', { sessionId, x: 0.25, y: 0.5, color: 'rgb(233, 30, 99)', videoTime: 12.5 }, token);
  await page.reload();
  const records = page.getByRole('region', { name: 'Records' });
  await expect(records.getByRole('listitem')).toHaveCount(2);
  await expect(
    page.getByRole('region', { name: 'Prompts' }).getByRole('textbox', { name: 'Prompt text' }),
  ).toHaveValue('What do you see?');
  await expectAccessible(page, 'session editor, records: messages');

  const actions = page.getByRole('region', { name: 'Actions' });
  await actions
    .getByRole('button', { name: /^Icon / })
    .first()
    .click();
  const icons = page.getByRole('dialog', { name: EDITOR_TEXTS.chooseIcon });
  // It opens on the icons for reactions once the names are in.
  await expect(icons.getByText(REACTION_ICON_TEXTS.suggested)).toBeVisible();
  await expectAccessible(page, 'icon picker');
  await page.keyboard.press('Escape');
  await expect(icons).toBeHidden();
  await actions
    .getByRole('button', { name: /^Colour / })
    .first()
    .click();
  const colours = page.getByRole('dialog', { name: EDITOR_TEXTS.chooseColour });
  await expect(colours.getByRole('textbox', { name: EDITOR_TEXTS.hexColour })).toBeVisible();
  await expectAccessible(page, 'colour picker');
  await page.keyboard.press('Escape');
  await expect(colours).toBeHidden();

  for (const tab of ['Pixels', 'Prompts']) {
    await records.getByRole('tab', { name: tab }).click();
    await expect(records.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    await expect(records.getByRole('row')).not.toHaveCount(0);
    await expectAccessible(page, `records: ${tab.toLowerCase()}`);
  }

  // The session is scoped to Everyone: the participant's list has it.
  const seat = await (await contextFor(browser, participant)).newPage();
  await seat.goto('/sessions');
  await expect(seat.getByRole('button', { name: 'New session (video session)' }).first()).toBeVisible();
  await expectAccessible(seat, "participant's sessions");
  await seat.context().close();
});

test('the live video session, researcher and participant, with chat and reactions', async ({ browser }) => {
  test.setTimeout(120_000);
  const [rhea, pat] = await Promise.all([
    signUp(emailOf('axe-live-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('axe-live-pat'), 'Pat Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Pattern viewing', actions: [...ACTIONS] });
  const contexts = await Promise.all([rhea, pat].map((person) => contextFor(browser, person)));
  const [desk, seat] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desk || !seat) throw new Error('two pages');
  // The participant's sound gate, before the video: in both layouts (a phone's too).
  await enterSession(sessionId, pat.accessToken);
  await seat.goto(livePath(sessionId));
  await expect(seat.getByTestId('sound-gate')).toBeVisible({ timeout: 20_000 });
  await expectAccessible(seat, 'sound gate');
  await Promise.all([openLive(desk, sessionId), openLive(seat, sessionId)]);

  await say(desk, 'Welcome! Watch the pattern and say what you notice.');
  await seat.getByRole('button', { name: 'React with Applause' }).click();
  await expect(chatLog(seat).getByText('Pat Participant reacted with Applause')).toBeVisible();
  await say(seat, 'The colours keep turning.');
  await researcherVideo.play(desk);
  await expect.poll(async () => (await sampleVideo(seat)).paused, { timeout: 10_000 }).toBe(false);
  await expectAccessible(desk, "live video, researcher's");
  await expectAccessible(seat, "live video, participant's");

  await holdAt(desk, seat, 6);
  await blur(seat);
  await capture(seat, 'live-video', videoArea(seat));
  await Promise.all(contexts.map((context) => context.close()));
});

test('the live stream session (HLS), researcher and participant', async ({ browser, streams }) => {
  test.setTimeout(120_000);
  const [ray, pax] = await Promise.all([
    signUp(emailOf('axe-stream-ray'), 'Ray Researcher', 'researcher'),
    signUp(emailOf('axe-stream-pax'), 'Pax Participant'),
  ]);
  const sessionId = await seedStreamSession(ray, 'Stream viewing', streams.hls);
  for (const action of ACTIONS) await api('addAction', { sessionId, ...action }, ray.accessToken);
  const contexts = await Promise.all([ray, pax].map((person) => contextFor(browser, person)));
  const [desk, seat] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desk || !seat) throw new Error('two pages');
  await Promise.all([openLive(desk, sessionId), openLive(seat, sessionId)]);

  await desk.getByRole('checkbox', { name: 'Allow Participant Clicks' }).check();
  await expect(seat.getByTestId('click-layer')).toHaveClass(/allowed/);
  await say(desk, 'Click where you look first.');
  await say(seat, 'The grey square, bottom left.');
  await researcherVideo.play(desk);
  await expect.poll(async () => (await sampleVideo(seat)).paused, { timeout: 10_000 }).toBe(false);
  await expectAccessible(desk, "live stream, researcher's");
  await expectAccessible(seat, "live stream, participant's");

  await holdAt(desk, seat, 6);
  // The toast that says clicks are allowed has gone (3 s).
  await expect(seat.locator('[data-sonner-toast]')).toHaveCount(0);
  await blur(seat);
  await capture(seat, 'live-stream', videoArea(seat));
  await Promise.all(contexts.map((context) => context.close()));
});

test('the live chat session: the camera call, researcher and participant', async ({ browser }) => {
  test.setTimeout(120_000);
  const { sessionId, researcher } = await chatSession(
    emailOf('axe-call-ruth'),
    'Ruth Lab',
    'Think-aloud call',
  );
  const pat = await signUp(emailOf('axe-call-pat'), 'Pat Call');
  for (const action of ACTIONS) await api('addAction', { sessionId, ...action }, researcher.accessToken);
  const desk = await openLiveSession(browser, researcher, sessionId);
  const seat = await openLiveSession(browser, pat, sessionId);

  await expectReceiving(tileVideo(desk, 'Pat Call'));
  await expectReceiving(tileVideo(seat, 'Researcher'));
  await expectReceiving(tileVideo(seat, 'You'));
  await say(desk, 'Thanks for joining: please think aloud.');
  await say(seat, 'Hello! I can see you.');
  await expectAccessible(desk, "live call, researcher's");
  await expectAccessible(seat, "live call, participant's");

  await expect(desk.locator('[data-sonner-toast]')).toHaveCount(0);
  await blur(desk);
  await capture(desk, 'live-call', desk.getByRole('region', { name: 'Video call' }));
  await Promise.all([desk, seat].map((page) => page.context().close()));
});
