import { SCREEN_TEXTS } from '@uis/proto/browser';
import { expect, type Page } from '@playwright/test';
import { COMMON_TEXTS } from '../../src/i18n/en/common';
import { EDITOR_TEXTS } from '../../src/i18n/en/editor';

/**
 * Creates a group with 'Create Group' and waits until the dashboard selects it: the new group (last,
 * groups come in creation order) is listed before it is selected, and until then the sessions shown
 * are the previous group's. The groups are counted once loaded (the list is busy until then: after a
 * reload it is briefly empty, and groups made through the API would be miscounted).
 */
export async function createGroup(page: Page): Promise<void> {
  const groups = page.getByRole('complementary', { name: 'Groups' });
  await expect(groups.getByRole('list')).toHaveAttribute('aria-busy', 'false');
  const rows = groups.getByRole('listitem');
  const before = await rows.count();
  await groups.getByRole('button', { name: SCREEN_TEXTS.createGroup }).click();
  await expect(rows).toHaveCount(before + 1);
  await expect(rows.last().locator('[aria-current="true"]')).toHaveCount(1);
}

/** Adds a session to the selected group with the add-session card. */
export async function addSession(page: Page): Promise<void> {
  const add = page.getByRole('button', { name: COMMON_TEXTS.addSession });
  // The card shows once the group's sessions are loaded: only then is the count before meaningful.
  await expect(add).toBeVisible();
  const cards = page
    .getByRole('list', { name: 'Sessions' })
    .getByRole('button', { name: COMMON_TEXTS.deleteSession });
  const before = await cards.count();
  await add.click();
  await expect(cards).toHaveCount(before + 1);
}

/** Opens a session's editor from its card and answers the session id (the path's, colon stripped). */
export async function openSession(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: new RegExp(`^${title} \\(`) }).click();
  await expect(page).toHaveURL(/\/editSession\/:[0-9a-f-]{36}$/);
  await expect(page.getByLabel(EDITOR_TEXTS.title, { exact: true })).toHaveValue(title);
  return decodeURIComponent(new URL(page.url()).pathname).replace(/^\/editSession\/:/, '');
}

/** A first group and a session in it, opened in the editor: what most editor tests start from. */
export async function newSessionInEditor(page: Page): Promise<string> {
  await createGroup(page);
  await addSession(page);
  return openSession(page, 'New session');
}

/**
 * Waits for the next answer of `path` (e.g. a debounced save), started by `act`, and checks it
 * succeeded: a test then reloads knowing the server has the change.
 */
export async function saved(page: Page, path: string, act: () => Promise<unknown>): Promise<void> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === path);
  await act();
  expect((await answer).status(), `${path} answered`).toBe(200);
}
