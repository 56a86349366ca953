import type { Page } from '@playwright/test';
import { addSession, createGroup, openSession, saved } from './support/dashboard';
import { DESKTOP, capture } from './support/screenshots';
import { signUpThroughApi } from './support/api';
import { expect, test } from './support/test';
import { emailOf, signUpParticipant, signUpResearcher } from './support/users';
import { EDITOR_TEXTS } from '../src/i18n/en/editor';
import { COMMON_TEXTS } from '../src/i18n/en/common';

/**
 * Gives the open session a title and one participant as its whole scope, typed by address (the
 * directory lists only people of the researcher's own sessions), then goes back.
 */
async function scopeSessionTo(page: Page, title: string, address: string): Promise<void> {
  await saved(page, '/editSessionInfo', () =>
    page.getByLabel(EDITOR_TEXTS.title, { exact: true }).fill(title),
  );
  await page.getByLabel(EDITOR_TEXTS.scope).fill(address);
  await saved(page, '/editSessionInfo', async () => {
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
  });
  await page.getByRole('button', { name: EDITOR_TEXTS.backToDashboard }).click();
}

test('a participant signs up, sees only the sessions in scope, cannot delete them, and opens one', async ({
  page,
  browser,
  baseURL,
}) => {
  await test.step('signs up and has no sessions yet', async () => {
    await signUpParticipant(page, emailOf('pat'), 'Pat Doe');
    await expect(page.getByText('No sessions yet.')).toBeVisible();
    await capture(page, 'sessions-empty');
  });
  await signUpThroughApi(emailOf('quinn'), 'Quinn Roe');

  await test.step('a researcher scopes one session to them and another to someone else', async () => {
    const researcher = await browser.newContext({ baseURL, viewport: DESKTOP });
    const desk = await researcher.newPage();
    await signUpResearcher(desk, emailOf('rita'), 'Rita Levi');
    await createGroup(desk);
    await addSession(desk);
    await addSession(desk);
    await openSession(desk, 'New session');
    await scopeSessionTo(desk, 'In scope', emailOf('pat'));
    await openSession(desk, 'New session 2');
    await scopeSessionTo(desk, 'Out of scope', emailOf('quinn'));
    await expect(desk.getByRole('button', { name: /^In scope / })).toBeVisible();
    await researcher.close();
  });

  await test.step('the participant sees the in-scope session only, with delete disabled', async () => {
    await page.reload();
    const sessions = page.getByRole('list', { name: 'Sessions' });
    const inScope = sessions.getByRole('listitem').filter({ hasText: 'In scope' });
    await expect(inScope.getByRole('button', { name: 'In scope (video session)' })).toBeVisible();
    await expect(page.getByText('Out of scope')).toHaveCount(0);
    // Sessions scoped to Everyone would show too (one server for all tests): none is deletable.
    await expect(inScope.getByRole('button', { name: COMMON_TEXTS.deleteSession })).toBeDisabled();
    for (const remove of await sessions.getByRole('button', { name: COMMON_TEXTS.deleteSession }).all()) {
      await expect(remove).toBeDisabled();
    }
    await capture(page, 'sessions');
  });

  await test.step('a participant has no dashboard: /dashboard sends them to their sessions', async () => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/sessions$/);
  });

  await test.step('selecting the session opens the live session', async () => {
    await page.getByRole('button', { name: 'In scope (video session)' }).click();
    await expect(page).toHaveURL(/\/liveSession\/:[0-9a-f-]{36}$/);
  });
});
