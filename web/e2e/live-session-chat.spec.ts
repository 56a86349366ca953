import { CLICKS_OFF_TEXT } from '@uis/proto/browser';
import { api } from './support/api';
import type { Locator, Page } from '@playwright/test';
import {
  chatLog,
  chatTexts,
  contextFor,
  expect,
  livePath,
  openLive,
  researcherVideo,
  sampleVideo,
  seedVideoSession,
  signUp,
  test,
} from './support/live-session';
import { emailOf } from './support/users';
import { LIVE_CONTROL_TEXTS, LIVE_SESSION_TEXTS } from '../src/i18n/en/live-session';

/** Presses Tab until `target` has the focus (keyboard only), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Clicks the participant's video at fractions x, y of the picture. */
async function clickVideo(page: Page, x: number, y: number): Promise<void> {
  const layer = page.getByTestId('click-layer');
  const box = await layer.boundingBox();
  if (!box) throw new Error('no click layer');
  await layer.click({ position: { x: box.width * x, y: box.height * y } });
}

test('chat, reactions and clicks: same order for everyone, keyboard only, clicks only while allowed, and a dropped connection catches up', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const [ruth, pat, quinn] = await Promise.all([
    signUp(emailOf('chat-ruth'), 'Ruth Researcher', 'researcher'),
    signUp(emailOf('chat-pat'), 'Pat Participant'),
    signUp(emailOf('chat-quinn'), 'Quinn Participant'),
  ]);
  const { sessionId } = await seedVideoSession(ruth, {
    title: 'Chat and clicks',
    actions: [
      { name: 'Applause', icon: 'celebration', type: 'outlined', color: '#e91e63' },
      { name: 'Confused', icon: 'help', type: 'round', color: '#3557d4' },
    ],
  });
  const contexts = await Promise.all([ruth, pat, quinn].map((person) => contextFor(browser, person)));
  const [ruthContext, , quinnContext] = contexts;
  const [desk, patPage, quinnPage] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!ruthContext || !quinnContext || !desk || !patPage || !quinnPage) throw new Error('three pages');
  const everyone = [desk, patPage, quinnPage];
  await Promise.all(everyone.map((page) => openLive(page, sessionId)));

  await test.step('messages and reactions sent at once reach everyone, in the same order', async () => {
    // Three browsers at once (each page's own steps in turn: they share one focus).
    await Promise.all([
      (async () => {
        await desk.getByRole('textbox', { name: 'Message' }).fill('Welcome, everyone');
        await desk.keyboard.press('Enter');
        await desk.getByRole('button', { name: 'React with Confused' }).click();
      })(),
      (async () => {
        await patPage.getByRole('textbox', { name: 'Message' }).fill('Hello from Pat');
        await patPage.getByRole('button', { name: LIVE_CONTROL_TEXTS.sendMessage }).click();
      })(),
      quinnPage.getByRole('button', { name: 'React with Applause' }).click(),
    ]);
    const expected = [
      'Welcome, everyone',
      'Hello from Pat',
      'Quinn Participant reacted with Applause',
      'Ruth Researcher reacted with Confused',
    ];
    for (const page of everyone) {
      await expect.poll(async () => [...(await chatTexts(page))].sort()).toEqual([...expected].sort());
    }
    const [first, ...others] = await Promise.all(everyone.map(chatTexts));
    for (const list of others) expect(list).toEqual(first);
    // Each message says who wrote it.
    await expect(chatLog(patPage).getByRole('listitem').filter({ hasText: 'Hello from Pat' })).toContainText(
      'Pat Participant',
    );
  });

  await test.step('keyboard only: a reaction, a two-line message, and the clicks checkbox', async () => {
    await quinnPage.bringToFront();
    await tabTo(quinnPage, quinnPage.getByRole('button', { name: 'React with Confused' }));
    await quinnPage.keyboard.press('Enter');
    const box = quinnPage.getByRole('textbox', { name: 'Message' });
    await tabTo(quinnPage, box);
    await quinnPage.keyboard.type('Typed with the keyboard');
    await quinnPage.keyboard.press('Shift+Enter');
    await quinnPage.keyboard.type('on two lines');
    await expect(box).toHaveValue('Typed with the keyboard\non two lines');
    await quinnPage.keyboard.press('Enter');
    await expect(box).toHaveValue('');
    for (const page of everyone) {
      await expect(chatLog(page).getByText('Quinn Participant reacted with Confused')).toBeVisible();
      await expect.poll(() => chatTexts(page)).toContain('Typed with the keyboard\non two lines');
    }
  });

  await test.step('a click is refused while clicks are off, and nothing is recorded', async () => {
    // The researcher holds the video still at 12.5 s, so the click's video time is known.
    await researcherVideo.seek(desk, 12.5);
    await expect.poll(async () => (await sampleVideo(patPage)).time).toBeCloseTo(12.5, 3);
    await clickVideo(patPage, 0.25, 0.5);
    await expect(patPage.getByText('Your click was not recorded')).toBeVisible();
    await expect(patPage.getByText(CLICKS_OFF_TEXT)).toBeVisible();
    expect((await api('getPixels', { sessionId }, ruth.accessToken)).pixels).toEqual([]);
  });

  await test.step('the researcher allows clicks with the keyboard; the participant is told', async () => {
    await desk.bringToFront();
    const allow = desk.getByRole('checkbox', { name: 'Allow Participant Clicks' });
    await tabTo(desk, allow);
    await desk.keyboard.press('Space');
    await expect(allow).toBeChecked();
    await expect(patPage.getByText(LIVE_CONTROL_TEXTS.clicksAllowed)).toBeVisible();
  });

  await test.step("a click is recorded with its colour, place and video time, marked for 2 s, and listed in the editor's Pixels tab", async () => {
    await clickVideo(patPage, 0.25, 0.5);
    const marker = patPage.getByTestId('click-marker');
    await expect(marker).toBeVisible();
    await expect(marker).toHaveCount(0, { timeout: 3500 });
    await expect
      .poll(async () => (await api('getPixels', { sessionId }, ruth.accessToken)).pixels)
      .toHaveLength(1);
    const [pixel] = (await api('getPixels', { sessionId }, ruth.accessToken)).pixels;
    expect(pixel?.name).toBe('Pat Participant');
    expect(pixel?.x).toBeCloseTo(0.25, 2);
    expect(pixel?.y).toBeCloseTo(0.5, 2);
    expect(pixel?.color).toMatch(/^rgba\(\d{1,3}, \d{1,3}, \d{1,3}, 1\)$/);
    expect(pixel?.videoTime).toBeCloseTo(12.5, 3);

    const editor = await ruthContext.newPage();
    await editor.goto(`/editSession/:${sessionId}`);
    const records = editor.getByRole('region', { name: 'Records' });
    await records.getByRole('tab', { name: 'Pixels' }).click();
    const row = records.getByRole('row').nth(1);
    await expect(row).toContainText('Pat Participant');
    await expect(row).toContainText('25%');
    await expect(row).toContainText('50%');
    await expect(row.getByRole('img', { name: pixel?.color ?? '' })).toBeVisible();
    await editor.close();
  });

  await test.step('turned off again: the participant is told and the next click is refused', async () => {
    await desk.getByRole('checkbox', { name: 'Allow Participant Clicks' }).uncheck();
    await expect(patPage.getByText('The researcher turned clicks off', { exact: false })).toBeVisible();
    await clickVideo(patPage, 0.5, 0.5);
    await expect(patPage.getByText(CLICKS_OFF_TEXT)).toBeVisible();
    expect((await api('getPixels', { sessionId }, ruth.accessToken)).pixels).toHaveLength(1);
  });

  await test.step("a dropped connection shows 'Reconnecting…' and the list catches up when it is back", async () => {
    await quinnContext.setOffline(true);
    await expect(quinnPage.getByText(LIVE_SESSION_TEXTS.reconnecting)).toBeVisible({ timeout: 60_000 });
    await expect(quinnPage.getByRole('button', { name: LIVE_CONTROL_TEXTS.sendMessage })).toBeDisabled();
    for (const [page, text] of [
      [desk, 'Said while Quinn was away'],
      [patPage, 'Pat too, meanwhile'],
    ] as const) {
      await page.getByRole('textbox', { name: 'Message' }).fill(text);
      await page.keyboard.press('Enter');
      await expect(chatLog(page).getByText(text)).toBeVisible();
    }
    await quinnContext.setOffline(false);
    await expect(quinnPage.getByText(LIVE_SESSION_TEXTS.reconnecting)).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(() => chatTexts(quinnPage), { timeout: 15_000 }).toEqual(await chatTexts(desk));
    // Stored once each, whatever the reconnect did.
    const stored = (await api('getMessages', { sessionId }, ruth.accessToken)).messages;
    expect(stored.map((message) => message.message)).toEqual(await chatTexts(desk));
  });

  await test.step('Exit goes back one page; opened directly, to the sessions list or the editor', async () => {
    // Opened directly: nothing of the app's to go back to.
    await patPage.getByRole('link', { name: LIVE_SESSION_TEXTS.exit }).click();
    await expect(patPage).toHaveURL(/\/sessions$/);
    // Opened from the list: Exit is the browser's back (the live page is still ahead).
    await patPage.getByRole('button', { name: 'Chat and clicks (video session)' }).click();
    await expect(patPage).toHaveURL(new RegExp(`${livePath(sessionId)}$`));
    await patPage.getByRole('link', { name: LIVE_SESSION_TEXTS.exit }).click();
    await expect(patPage).toHaveURL(/\/sessions$/);
    await patPage.goForward();
    await expect(patPage).toHaveURL(new RegExp(`${livePath(sessionId)}$`));
    await desk.getByRole('link', { name: LIVE_SESSION_TEXTS.exit }).click();
    await expect(desk).toHaveURL(new RegExp(`/editSession/:${sessionId}$`));
  });

  await Promise.all(contexts.map((context) => context.close()));
});
