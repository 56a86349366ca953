import { UI_TEXTS } from '@uis/proto/browser';
import { expect, test, type Page } from '@playwright/test';
import { nextMagicLink } from './magic-link';
import { SIGN_IN_TEXTS } from '../../src/i18n/en/sign-in';
import { SIGN_UP_TEXTS } from '../../src/i18n/en/sign-up';
import { userTypeOptionName } from '../../src/features/sign-in/user-type-option';

/**
 * The address of a test's user. Every run starts a fresh server, so a label used by one test only
 * is enough to keep tests apart; fixed addresses keep the screenshots the same from run to run. A
 * test repeated in one run (`--repeat-each`) gets the repeat's number in its addresses.
 */
export function emailOf(label: string): string {
  const repeat = test.info().repeatEachIndex;
  return repeat === 0 ? `${label}@example.org` : `${label}-r${repeat}@example.org`;
}

/** Asks for a magic link on the login screen and answers the link printed for it. */
export async function requestMagicLink(page: Page, email: string): Promise<string> {
  await page.goto('/');
  return nextMagicLink(email, async () => {
    await page.getByLabel(SIGN_IN_TEXTS.email).fill(email);
    await page.getByRole('button', { name: SIGN_IN_TEXTS.enter }).click();
    await expect(page.getByText(UI_TEXTS.magicLinkSent)).toBeVisible();
  });
}

/**
 * A new researcher as the auth service asks: the magic link first (researchers prove their e-mail),
 * whose callback finds no account and goes on to sign-up, where they choose the type and a name.
 */
export async function signUpResearcher(page: Page, email: string, name: string): Promise<void> {
  await page.goto(await requestMagicLink(page, email));
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByRole('button', { name: userTypeOptionName('researcher') }).click();
  await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toHaveValue(email);
  await page.getByLabel(SIGN_UP_TEXTS.name).fill(name);
  await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * A participant signs up as a person now does: /signup, 'Select User Type', e-mail and name; Sign up
 * mails a link that confirms the address, and following it in the same tab finishes the sign-up with
 * the name and type chosen before.
 */
export async function signUpParticipant(page: Page, email: string, name: string): Promise<void> {
  await page.goto('/signup');
  await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
  await page.getByLabel(SIGN_IN_TEXTS.email).fill(email);
  await page.getByLabel(SIGN_UP_TEXTS.name).fill(name);
  const link = await nextMagicLink(email, async () => {
    await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(page.getByRole('status')).toContainText(`We sent a link to ${email}`);
  });
  await page.goto(link);
  await expect(page).toHaveURL(/\/sessions$/);
}
