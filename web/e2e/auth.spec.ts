import { SCREEN_TEXTS, TOKEN_COOKIES, UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { capture } from './support/screenshots';
import { expect, test } from './support/test';
import { requestMagicLink, signUpResearcher, emailOf } from './support/users';

test.describe('signed out', () => {
  test('an unknown path shows the login screen', async ({ page }) => {
    await page.goto('/no/such/screen');
    await expect(page.getByRole('heading', { name: SCREEN_TEXTS.appTitle })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enter' })).toBeVisible();
    await expect(page).toHaveURL(/\/no\/such\/screen$/);
    await page.goto('/');
    await capture(page, 'login');
  });

  test('users with no tokens are sent to / from the signed-in screens', async ({ page }) => {
    for (const path of ['/dashboard', '/sessions', '/editSession/:00000000-0000-4000-8000-000000000000']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('button', { name: 'Enter' })).toBeVisible();
    }
  });

  test("login: an empty e-mail gives 'Please provide your email to enter.'; a sent link says so", async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page.getByText(VALIDATION_TEXTS.loginEmail)).toBeVisible();
    await capture(page, 'login-empty-email');

    const email = emailOf('login');
    const link = await requestMagicLink(page, email);
    expect(new URL(link).searchParams.get('email')).toBe(email);
    await expect(page.getByText(VALIDATION_TEXTS.loginEmail)).toBeHidden();
    await capture(page, 'login-link-sent');
  });

  test("sign-up: 'Select User Type', then 'Please provide your email.' and 'Please provide your name.'", async ({
    page,
  }) => {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: SCREEN_TEXTS.selectUserType })).toBeVisible();
    await capture(page, 'signup-user-type');

    await page.getByRole('button', { name: 'Participant' }).click();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(VALIDATION_TEXTS.signupEmail)).toBeVisible();
    await expect(page.getByText(VALIDATION_TEXTS.signupName)).toBeVisible();
    await capture(page, 'signup-empty-fields');

    // Each text goes once its field is filled, independently of the other.
    await page.getByLabel('Email').fill(emailOf('half'));
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText(VALIDATION_TEXTS.signupEmail)).toBeHidden();
    await expect(page.getByText(VALIDATION_TEXTS.signupName)).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("the auth callback without an e-mail says 'Authentication failed. Please try again.' and returns to /", async ({
    page,
  }) => {
    await page.goto('/authcallback?token=abc');
    await expect(page.getByText(UI_TEXTS.authenticationFailed)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Enter' })).toBeVisible();
  });

  test("the auth callback shows 'Verifying your login...' while the link is checked", async ({ page }) => {
    const email = emailOf('verify');
    const link = await requestMagicLink(page, email);
    // Hold the real answer back until the screen is captured (nothing is faked: it then goes through).
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/getUserTokens?*', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(link);
    await expect(page.getByText(SCREEN_TEXTS.verifyingLogin)).toBeVisible();
    await capture(page, 'auth-callback');
    release();
    // A new e-mail has no account: the link goes on to sign-up, carrying its proof.
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test.describe('signed in', () => {
  test('log out returns to / and the dashboard then sends back to /', async ({ page, context }) => {
    await signUpResearcher(page, emailOf('logout'), 'Lou Out');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    const names = (await context.cookies()).map(({ name }) => name);
    expect(names).not.toContain(TOKEN_COOKIES.refreshToken);
    expect(names).not.toContain(TOKEN_COOKIES.accessToken);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });

  test('account deletion signs out, and the same e-mail then has no account', async ({ page, context }) => {
    const email = emailOf('delete');
    await signUpResearcher(page, email, 'Del Eted');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await capture(page, 'delete-account-confirm');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    const names = (await context.cookies()).map(({ name }) => name);
    expect(names).not.toContain(TOKEN_COOKIES.refreshToken);

    // The next magic link finds no account: its callback leads to sign-up.
    await page.goto(await requestMagicLink(page, email));
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { name: SCREEN_TEXTS.selectUserType })).toBeVisible();
  });
});
