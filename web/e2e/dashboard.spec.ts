import { SCREEN_TEXTS, VALIDATION_TEXTS, helloText } from '@uis/proto/browser';
import { addSession, createGroup, openSession, saved } from './support/dashboard';
import { DESKTOP, MOBILE, capture } from './support/screenshots';
import { expect, test } from './support/test';
import { emailOf, signUpResearcher } from './support/users';
import { COMMON_TEXTS } from '../src/i18n/en/common';
import {
  DASHBOARD_TEXTS,
  DELETION_TEXTS,
  deleteGroupHeading,
  deleteSessionHeading,
} from '../src/i18n/en/dashboard';
import { EDITOR_TEXTS } from '../src/i18n/en/editor';

test('a new researcher signs in through the printed magic link, creates and renames a group, and creates sessions', async ({
  page,
}) => {
  await test.step('signs up through the magic link and lands on an empty dashboard', async () => {
    await signUpResearcher(page, emailOf('ada'), 'Ada Lovelace');
    await expect(page.getByText(helloText('Ada Lovelace'))).toBeVisible();
    await expect(page.getByText(SCREEN_TEXTS.createGroupFirst)).toBeVisible();
    await capture(page, 'dashboard-empty');
  });

  const groups = page.getByRole('complementary', { name: 'Groups' });
  const sessionsHeading = page.getByRole('heading', { level: 2 }).last();

  await test.step('creates a group, which is selected', async () => {
    await createGroup(page);
    await expect(groups.getByRole('button', { name: 'New group' })).toHaveAttribute('aria-current', 'true');
    await expect(page.getByText(SCREEN_TEXTS.createGroupFirst)).toBeHidden();
    await expect(page.getByRole('button', { name: COMMON_TEXTS.addSession })).toBeVisible();
  });

  await test.step('renames it inline: an empty title is refused, a new one saved after the pause', async () => {
    await groups.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }).click();
    const title = groups.getByRole('textbox', { name: DASHBOARD_TEXTS.groupTitle });
    await title.fill('');
    await expect(groups.getByText(VALIDATION_TEXTS.empty)).toBeVisible();
    await saved(page, '/editGroup', () => title.fill('Pilot study'));
    await expect(title).toBeHidden();
    await expect(groups.getByRole('button', { name: 'Pilot study' })).toBeVisible();
    await page.reload();
    await expect(groups.getByRole('button', { name: 'Pilot study' })).toBeVisible();
    await expect(sessionsHeading).toHaveText('Pilot study');
  });

  await test.step('a click outside ends editing a title', async () => {
    await groups.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }).click();
    await expect(groups.getByRole('textbox', { name: DASHBOARD_TEXTS.groupTitle })).toBeVisible();
    await page.getByRole('main').click();
    await expect(groups.getByRole('textbox', { name: DASHBOARD_TEXTS.groupTitle })).toBeHidden();
    await expect(groups.getByRole('button', { name: 'Pilot study' })).toBeVisible();
  });

  await test.step('a second group is created and deleted; the selection returns to the first', async () => {
    await createGroup(page);
    await expect(sessionsHeading).toHaveText('New group');
    const second = groups.getByRole('listitem').filter({ hasText: 'New group' });
    await second.getByRole('button', { name: DASHBOARD_TEXTS.deleteGroup }).click();
    const dialog = page.getByRole('alertdialog', { name: deleteGroupHeading('New group') });
    await expect(dialog).toContainText('It has no sessions.');
    await dialog.getByRole('button', { name: DELETION_TEXTS.deleteGroup }).click();
    await expect(dialog).toBeHidden();
    await expect(second).toHaveCount(0);
    await expect(sessionsHeading).toHaveText('Pilot study');
  });

  await test.step('adds two sessions and deletes one', async () => {
    await addSession(page);
    await addSession(page);
    const cards = page.getByRole('list', { name: 'Sessions' });
    await expect(cards.getByRole('button', { name: 'New session (video session)' })).toBeVisible();
    const second = cards.getByRole('listitem').filter({ hasText: 'New session 2' });
    await second.getByRole('button', { name: COMMON_TEXTS.deleteSession }).click();
    const dialog = page.getByRole('alertdialog', { name: deleteSessionHeading('New session 2') });
    await expect(dialog).toContainText('It has no messages or clicks yet. It has no uploaded video.');
    await dialog.getByRole('button', { name: COMMON_TEXTS.cancel }).click();
    await expect(second).toHaveCount(1);
    await second.getByRole('button', { name: COMMON_TEXTS.deleteSession }).click();
    await dialog.getByRole('button', { name: DELETION_TEXTS.deleteSession }).click();
    await expect(second).toHaveCount(0);
    await addSession(page);
    await capture(page, 'dashboard');
  });

  await test.step("on a phone the groups bar folds behind an arrow and 'Create Group' reads '+ Create'", async () => {
    await page.setViewportSize(MOBILE);
    await expect(groups.getByRole('button', { name: 'Pilot study' })).toBeHidden();
    await groups.getByRole('button', { name: DASHBOARD_TEXTS.showGroups }).click();
    await expect(groups.getByRole('button', { name: SCREEN_TEXTS.createGroup })).toHaveText(
      SCREEN_TEXTS.createGroupShort,
    );
    await groups.getByRole('button', { name: 'Pilot study' }).click();
    await expect(groups.getByRole('button', { name: DASHBOARD_TEXTS.showGroups })).toBeVisible();
    await page.setViewportSize(DESKTOP);
    await expect(groups.getByRole('button', { name: SCREEN_TEXTS.createGroup })).toHaveText(
      SCREEN_TEXTS.createGroup,
    );
  });

  await test.step('a card opens its editor, whose back arrow returns to the dashboard', async () => {
    await openSession(page, 'New session');
    await page.getByRole('button', { name: EDITOR_TEXTS.backToDashboard }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
