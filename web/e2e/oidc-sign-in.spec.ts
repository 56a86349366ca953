import { SIGN_IN_PROVIDER_ERRORS, helloText } from '@uis/proto/browser';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { OIDC_TEST_PROVIDER, type OidcTestAccount } from './support/oidc';
import { capture } from './support/screenshots';
import { stack } from './support/stack-env';
import { SIGN_IN_TEXTS } from '../src/i18n/en/sign-in';
import { ACCOUNT_TEXTS } from '../src/i18n/en/account';
import { SIGN_UP_TEXTS } from '../src/i18n/en/sign-up';
import { userTypeOptionName } from '../src/features/sign-in/user-type-option';

const button = (page: Page) => page.getByRole('link', { name: OIDC_TEST_PROVIDER.label });

/** At the provider's login form (any password): signs in as `account`. */
async function signInAtProvider(page: Page, account: OidcTestAccount): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${stack().oidcIssuer}/interaction/`));
  await page.locator('input[name="login"]').fill(account);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
}

test.describe('sign-in with a university’s OpenID Connect provider', () => {
  test('a new researcher signs up through the provider and lands on the dashboard; next time signs straight in', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(button(page)).toBeVisible();
    await capture(page, 'login-providers');
    await button(page).click();
    await signInAtProvider(page, 'oidc-rhea');
    // Back with a verified e-mail and no account yet: the sign-up form, e-mail fixed, name known.
    await expect(page).toHaveURL(/\/signup$/);
    await page.getByRole('button', { name: userTypeOptionName('researcher') }).click();
    await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toHaveValue('oidc-rhea@example.org');
    await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toHaveJSProperty('readOnly', true);
    await expect(page.getByLabel(SIGN_UP_TEXTS.name)).toHaveValue('Rhea Oidc');
    await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(helloText('Rhea Oidc'))).toBeVisible();

    await page.getByRole('button', { name: ACCOUNT_TEXTS.logOut }).click();
    await expect(button(page)).toBeVisible();
    await button(page).click();
    // The provider remembers its own session (single sign-on), and the account is the same one:
    // straight to the dashboard, no form at either end.
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(helloText('Rhea Oidc'))).toBeVisible();
  });

  test('an e-mail the provider has not verified is refused, with what to do', async ({ page }) => {
    await page.goto('/');
    await button(page).click();
    await signInAtProvider(page, 'oidc-eve');
    await expect(page).toHaveURL(/\/login\?signInError=unverified$/);
    await expect(page.getByRole('alert')).toContainText(SIGN_IN_PROVIDER_ERRORS.unverified);
  });

  test('a state that is not this browser’s is refused: two sign-ins at once, the first one finished', async ({
    context,
  }) => {
    const [first, second] = [await context.newPage(), await context.newPage()];
    for (const page of [first, second]) {
      await page.goto('/');
      await button(page).click();
      await expect(page).toHaveURL(new RegExp(`^${stack().oidcIssuer}/interaction/`));
    }
    // The browser now holds the second sign-in's state: the first one's comes back unmatched.
    await signInAtProvider(first, 'oidc-sam');
    await expect(first).toHaveURL(/\/login\?signInError=state$/);
    await expect(first.getByRole('alert')).toContainText(SIGN_IN_PROVIDER_ERRORS.state);
  });

  test('an ID token with another nonce than this sign-in’s is refused', async ({ page }) => {
    // The authorization request reaches the provider with a nonce the app did not make: the app's
    // redirect to the provider is rewritten on its way to the browser (its cookie kept).
    await page.route('**/oidc/start?*', async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers()['location']!);
      location.searchParams.set('nonce', 'a-nonce-the-app-never-made-0123456789abcdef');
      await route.fulfill({ response, headers: { ...response.headers(), location: location.toString() } });
    });
    await page.goto('/');
    await button(page).click();
    await signInAtProvider(page, 'oidc-sam');
    await expect(page).toHaveURL(/\/login\?signInError=token$/);
    await expect(page.getByRole('alert')).toContainText(SIGN_IN_PROVIDER_ERRORS.token);
  });
});
