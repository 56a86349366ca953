import fs from 'node:fs';
import path from 'node:path';
import {
  SCREEN_TEXTS,
  SIGNED_IN_COOKIE,
  TOKEN_COOKIES,
  UI_TEXTS,
  VALIDATION_TEXTS,
  helloText,
} from '@uis/proto/browser';
import { holdAnswers } from './support/hold-answer';
import { nextMagicLink } from './support/magic-link';
import { DESKTOP, capture } from './support/screenshots';
import { stack } from './support/stack-env';
import { expect, test } from './support/test';
import { emailOf, requestMagicLink, signUpResearcher } from './support/users';
import { userTypeOptionName } from '../src/features/sign-in/user-type-option';
import { SIGN_IN_TEXTS } from '../src/i18n/en/sign-in';
import { continueAsText, signInAsText } from '../src/i18n/en/auth-callback';
import { SIGN_UP_TEXTS } from '../src/i18n/en/sign-up';
import { ACCOUNT_TEXTS } from '../src/i18n/en/account';

test.describe('signed out', () => {
  test('an unknown path shows the login screen', async ({ page }) => {
    await page.goto('/no/such/screen');
    await expect(page.getByRole('heading', { name: SCREEN_TEXTS.appTitle })).toBeVisible();
    await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toBeVisible();
    await expect(page.getByRole('button', { name: SIGN_IN_TEXTS.enter })).toBeVisible();
    await expect(page).toHaveURL(/\/no\/such\/screen$/);
    await page.goto('/');
    await capture(page, 'login');
  });

  test('users with no tokens are sent to / from the signed-in screens', async ({ page }) => {
    for (const path of ['/dashboard', '/sessions', '/editSession/:00000000-0000-4000-8000-000000000000']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('button', { name: SIGN_IN_TEXTS.enter })).toBeVisible();
    }
  });

  test("login: an empty e-mail gives 'Please provide your email to enter.'; a sent link says so", async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: SIGN_IN_TEXTS.enter }).click();
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

    await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
    await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(page.getByText(VALIDATION_TEXTS.signupEmail)).toBeVisible();
    await expect(page.getByText(VALIDATION_TEXTS.signupName)).toBeVisible();
    await capture(page, 'signup-empty-fields');

    // Each text goes once its field is filled, independently of the other.
    await page.getByLabel(SIGN_IN_TEXTS.email).fill(emailOf('half'));
    await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(page.getByText(VALIDATION_TEXTS.signupEmail)).toBeHidden();
    await expect(page.getByText(VALIDATION_TEXTS.signupName)).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('sign-up mails a link that confirms the e-mail; following it in this browser finishes the sign-up', async ({
    page,
  }) => {
    const email = emailOf('sam');
    await page.goto('/signup');
    await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
    await expect(page.getByText('We will e-mail you a link to confirm your address.')).toBeVisible();
    await page.getByLabel(SIGN_IN_TEXTS.email).fill(email);
    await page.getByLabel(SIGN_UP_TEXTS.name).fill('Sam Lee');
    await nextMagicLink(email, async () => {
      await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
      await expect(page.getByRole('status')).toHaveText(
        `We sent a link to ${email}: open it in this browser to finish signing up.`,
      );
    });
    await expect(page.getByRole('heading', { name: SIGN_UP_TEXTS.checkEmail })).toBeFocused();
    await expect(page).toHaveURL(/\/signup$/);
    await capture(page, 'signup-link-sent');

    // Sending again mails a new link; either one finishes the sign-up.
    const link = await nextMagicLink(email, async () => {
      await page.getByRole('button', { name: SIGN_UP_TEXTS.sendAgain }).click();
      await expect(page.getByRole('status')).toContainText(`We sent another link to ${email}`);
    });

    // The real answer waits until the screen is captured.
    const release = await holdAnswers(page, '**/setNewUser');
    await page.goto(link);
    await expect(page.getByRole('status')).toHaveText(SIGN_UP_TEXTS.finishing);
    await capture(page, 'signup-finishing');
    release();
    await expect(page).toHaveURL(/\/sessions$/);
    await expect(page.getByText(helloText('Sam Lee'))).toBeVisible();
  });

  test('a sign-up link opened in another browser asks there for the type and name, the e-mail fixed', async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = emailOf('tess');
    await page.goto('/signup');
    await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
    // A mistyped address: back to the form to correct it, where typing goes on at once.
    await page.getByLabel(SIGN_IN_TEXTS.email).fill(emailOf('tes'));
    await page.getByLabel(SIGN_UP_TEXTS.name).fill('Tess Ng');
    await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(page.getByRole('status')).toContainText(`We sent a link to ${emailOf('tes')}`);
    await page.getByRole('button', { name: 'Use a different e-mail' }).click();
    await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toBeFocused();
    await expect(page.getByLabel(SIGN_UP_TEXTS.name)).toHaveValue('Tess Ng');
    const link = await nextMagicLink(email, async () => {
      await page.getByLabel(SIGN_IN_TEXTS.email).fill(email);
      await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
      await expect(page.getByRole('status')).toContainText(`We sent a link to ${email}`);
    });

    const elsewhere = await browser.newContext({ baseURL, viewport: DESKTOP });
    const other = await elsewhere.newPage();
    await other.goto(link);
    // Not asked for in that browser: nothing happens until the person says it is their address.
    await other.getByRole('button', { name: continueAsText(email) }).click();
    await expect(other).toHaveURL(/\/signup$/);
    await other.getByRole('button', { name: userTypeOptionName('participant') }).click();
    await expect(other.getByLabel(SIGN_IN_TEXTS.email)).toHaveValue(email);
    await expect(other.getByLabel(SIGN_IN_TEXTS.email)).toHaveJSProperty('readOnly', true);
    await expect(
      other.getByText('Your e-mail is confirmed by the sign-in link.', { exact: false }),
    ).toBeVisible();
    await expect(other.getByLabel(SIGN_UP_TEXTS.name)).toHaveValue('');
    await capture(other, 'signup-confirmed');
    await other.getByLabel(SIGN_UP_TEXTS.name).fill('Tess Ng');
    await other.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
    await expect(other).toHaveURL(/\/sessions$/);
    await expect(other.getByText(helloText('Tess Ng'))).toBeVisible();
    await elsewhere.close();
  });

  test('a sign-in link asked for in another browser signs in only after "Continue as …" (login CSRF)', async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = emailOf('mallory');
    await signUpResearcher(page, email, 'Mallory Sender');
    // Mallory asks for a link of her own account and sends it to someone else.
    const sender = await browser.newContext({ baseURL });
    const link = await requestMagicLink(await sender.newPage(), email);
    await sender.close();

    const victim = await browser.newContext({ baseURL, viewport: DESKTOP });
    const other = await victim.newPage();
    await other.goto(link);
    await expect(other.getByRole('heading', { name: signInAsText(email) })).toBeVisible();
    await capture(other, 'auth-callback-confirm');
    await other.getByRole('link', { name: /Not you\?/ }).click();
    await expect(other.getByRole('button', { name: SIGN_IN_TEXTS.enter })).toBeVisible();
    const names = (await victim.cookies()).map(({ name }) => name);
    expect(names).not.toContain(TOKEN_COOKIES.accessToken);

    // The link was not spent: its owner, in that browser, goes on with it.
    await other.goto(link);
    await other.getByRole('button', { name: continueAsText(email) }).click();
    await expect(other).toHaveURL(/\/dashboard$/);
    await victim.close();
  });

  test("the auth callback without an e-mail says 'Authentication failed. Please try again.' and returns to /", async ({
    page,
  }) => {
    await page.goto('/authcallback?token=abc');
    await expect(page.getByText(UI_TEXTS.authenticationFailed)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: SIGN_IN_TEXTS.enter })).toBeVisible();
  });

  test("the auth callback shows 'Verifying your login...' while the link is checked", async ({ page }) => {
    const email = emailOf('verify');
    const link = await requestMagicLink(page, email);
    // The real answer waits until the screen is captured.
    const release = await holdAnswers(page, '**/getUserTokens?*');
    await page.goto(link);
    await expect(page.getByText(SCREEN_TEXTS.verifyingLogin)).toBeVisible();
    await capture(page, 'auth-callback');
    release();
    // A new e-mail has no account: the link goes on to sign-up, carrying its proof.
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test.describe('signed in', () => {
  test('the tokens are cookies no script of the page can read, auth sets them; a readable one says only until when', async ({
    page,
    context,
  }) => {
    await signUpResearcher(page, emailOf('jar'), 'Jar Cookie');
    const cookies = new Map((await context.cookies()).map((cookie) => [cookie.name, cookie]));
    for (const name of [TOKEN_COOKIES.accessToken, TOKEN_COOKIES.refreshToken]) {
      expect(cookies.get(name)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    }
    const marker = cookies.get(SIGNED_IN_COOKIE)!;
    expect(marker).toMatchObject({ httpOnly: false, sameSite: 'Lax', path: '/' });
    expect(Number(marker.value) * 1000).toBeGreaterThan(Date.now());
    const readable = await page.evaluate(() => document.cookie);
    expect(readable).toBe(`${SIGNED_IN_COOKIE}=${marker.value}`);
    // Renewed by its cookie (a reload with an expired access token would do the same).
    await page.evaluate(() => {
      document.cookie = 'signedIn=1; path=/';
    });
    const renewal = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/getAccessTokenFromRefreshToken',
    );
    await page.reload();
    expect((await renewal).status()).toBe(200);
    await expect(page.getByText(helloText('Jar Cookie'))).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    const renewed = (await context.cookies()).find(({ name }) => name === SIGNED_IN_COOKIE);
    expect(Number(renewed?.value) * 1000).toBeGreaterThan(Date.now());
  });

  test('log out returns to / and the dashboard then sends back to /', async ({ page, context }) => {
    await signUpResearcher(page, emailOf('logout'), 'Lou Out');
    await page.getByRole('button', { name: ACCOUNT_TEXTS.logOut }).click();
    await expect(page).toHaveURL(/\/$/);
    const names = (await context.cookies()).map(({ name }) => name);
    expect(names).not.toContain(TOKEN_COOKIES.refreshToken);
    expect(names).not.toContain(TOKEN_COOKIES.accessToken);
    expect(names).not.toContain(SIGNED_IN_COOKIE);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });

  test('account deletion signs out, and the same e-mail then has no account', async ({ page, context }) => {
    const email = emailOf('delete');
    await signUpResearcher(page, email, 'Del Eted');
    await page.getByRole('button', { name: ACCOUNT_TEXTS.deleteAccount }).click();
    await capture(page, 'delete-account-confirm');
    await page.getByRole('button', { name: ACCOUNT_TEXTS.deleteConfirm }).click();
    await expect(page).toHaveURL(/\/$/);
    const names = (await context.cookies()).map(({ name }) => name);
    expect(names).not.toContain(TOKEN_COOKIES.refreshToken);

    // The next magic link finds no account: its callback leads to sign-up.
    await page.goto(await requestMagicLink(page, email));
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { name: SCREEN_TEXTS.selectUserType })).toBeVisible();
  });
});

test.describe('the embedded mode', () => {
  // The probe found the dev outbox's mails (sign-in links) and the object files readable by every
  // local user: npm start now keeps everything it writes to its own account.
  test('keeps its data readable by its own account only: the outbox, the objects, the secrets', async ({
    page,
  }) => {
    await requestMagicLink(page, emailOf('private-data'));
    const { outboxDir } = stack();
    const dataDir = path.dirname(outboxDir);
    const modes = (file: string) => fs.statSync(file).mode & 0o777;
    // Folders: nobody else may list or write them. (Run as root, the embedded Postgres's own user is
    // let pass through the data folder to its cluster: execute only, which lists nothing.)
    for (const folder of [dataDir, outboxDir, path.join(dataDir, 's3')])
      expect(modes(folder) & 0o066).toBe(0);
    // Files: nobody else may read them.
    for (const mail of fs.readdirSync(outboxDir)) expect(modes(path.join(outboxDir, mail)) & 0o077).toBe(0);
    expect(modes(path.join(dataDir, 'secrets.json')) & 0o077).toBe(0);
  });
});
