import { INVITATIONS_PER_ADDRESS_PER_HOUR, JOIN_PATH, TOKEN_COOKIES } from '@uis/proto/browser';
import { studyExportFileName } from '@uis/proto';
import type { Browser, Page } from '@playwright/test';
import { COMMON_TEXTS, JOIN_TEXTS } from '../src/i18n/en/common';
import { api, signUpThroughApi } from './support/api';
import { parseCsv } from './support/csv';
import { nextMagicLink } from './support/magic-link';
import { OIDC_TEST_ACCOUNTS, OIDC_TEST_PROVIDER } from './support/oidc';
import { invitationCount, nextInvitation } from './support/outbox';
import { expectAccessible } from './support/axe';
import { capture } from './support/screenshots';
import { stack } from './support/stack-env';
import { expect, test } from './support/test';
import { emailOf } from './support/users';
import { userTypeOptionName } from '../src/features/sign-in/user-type-option';
import { unzip } from './support/zip';
import { SIGN_IN_TEXTS } from '../src/i18n/en/sign-in';
import { continueAsText } from '../src/i18n/en/auth-callback';
import { inviteToText, PARTICIPATION_TEXTS, SOURCE_LABELS } from '../src/i18n/en/participation';
import { SIGN_UP_TEXTS } from '../src/i18n/en/sign-up';
import { EDITOR_TEXTS } from '../src/i18n/en/editor';
import { JOIN_LANDING_TEXTS } from '../src/i18n/en/join-session';

/**
 * Invitations and join links: a researcher invites an address that has no account from the editor's
 * Scope, and the invitation's link signs the person up and opens the session; a join link carrying a
 * recruitment panel's ids adds a newcomer, whose ids show in the editor and the study export; a
 * revoked link and a full one say so.
 */

interface Researcher {
  email: string;
  accessToken: string;
  refreshToken: string;
}

async function researcher(label: string, name: string): Promise<Researcher> {
  const email = emailOf(label);
  return { email, ...(await signUpThroughApi(email, name, 'researcher')) };
}

/** A chat session of the researcher's (no video to wait for), titled `title`, scoped to Everyone, opened (live). */
async function seedChatSession(owner: Researcher, title: string): Promise<string> {
  const { group } = await api('createGroup', { title: `${title} group` }, owner.accessToken);
  const { session } = await api('createSession', { groupId: group.group_id }, owner.accessToken);
  await api(
    'editSessionInfo',
    { sessionId: session.session_id, title, type: 'chat', state: 'live' },
    owner.accessToken,
  );
  return session.session_id;
}

/** The researcher's editor of the session, in a browser context signed in as them. */
async function openEditor(browser: Browser, owner: Researcher, sessionId: string): Promise<Page> {
  const { baseUrl } = stack();
  const context = await browser.newContext({ baseURL: baseUrl });
  await context.addCookies([
    { name: TOKEN_COOKIES.accessToken, value: owner.accessToken, url: baseUrl, sameSite: 'Lax' },
    { name: TOKEN_COOKIES.refreshToken, value: owner.refreshToken, url: baseUrl, sameSite: 'Lax' },
  ]);
  const page = await context.newPage();
  await page.goto(`/editSession/:${sessionId}`);
  await expect(page.getByRole('heading', { name: 'People' })).toBeVisible();
  return page;
}

const people = (page: Page) => page.getByRole('region', { name: 'People' });
const invitedList = (page: Page) => people(page).getByRole('list', { name: /^Invited/ });
const joinedList = (page: Page) => people(page).getByRole('list', { name: /^Joined/ });
const joinLinkSection = (page: Page) => page.getByRole('region', { name: PARTICIPATION_TEXTS.joinLink });

/** The live screen of the session, once its realtime connection is up (the session counts as opened). */
async function expectLive(page: Page, sessionId: string, title: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/liveSession/:${sessionId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByText(COMMON_TEXTS.connecting)).toHaveCount(0, { timeout: 20_000 });
}

/** A newcomer's sign-up as the screens ask after a sign-in link: participant, then a name. */
/**
 * The sign-up form, as a participant. On the way to a join link the researcher's sign-up is not
 * offered at all (no user-type step); elsewhere they choose Participant.
 */
async function signUpAsParticipant(
  page: Page,
  email: string,
  name: string,
  { throughJoinLink = false } = {},
): Promise<void> {
  await expect(page).toHaveURL(/\/signup$/);
  if (throughJoinLink) {
    await expect(page.getByLabel(SIGN_UP_TEXTS.name)).toBeVisible();
    await expect(page.getByRole('button', { name: userTypeOptionName('researcher') })).toHaveCount(0);
  } else {
    await page.getByRole('button', { name: userTypeOptionName('participant') }).click();
  }
  await expect(page.getByLabel(SIGN_IN_TEXTS.email)).toHaveValue(email);
  await page.getByLabel(SIGN_UP_TEXTS.name).fill(name);
  await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
}

test('an address without an account is invited from Scope, signs up from the mail and lands in the session', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = 'Invitation study';
  const owner = await researcher('inv-rhea', 'Rhea Inviter');
  const sessionId = await seedChatSession(owner, title);
  const newcomer = emailOf('inv-nia');
  const editor = await openEditor(browser, owner, sessionId);

  const mail = await test.step('typing the address in Scope and saving mails an invitation', async () =>
    nextInvitation(newcomer, async () => {
      const saved = editor.waitForResponse(
        (response) => new URL(response.url()).pathname === '/editSessionInfo',
      );
      await editor.getByLabel(EDITOR_TEXTS.scope).fill(newcomer);
      await editor.getByRole('option', { name: `Invite ${newcomer}` }).click();
      await editor.keyboard.press('Escape');
      expect((await saved).status()).toBe(200);
    }));
  expect(mail.subject).toContain(title);
  expect(mail.text).toContain(title);
  const link = new URL(mail.link);
  expect(link.pathname).toBe('/authcallback');
  expect(link.searchParams.get('email')).toBe(newcomer);
  expect(link.searchParams.get('next')).toBe(`/liveSession/:${sessionId}`);
  await expect(invitedList(editor).getByText(newcomer)).toBeVisible();
  await expect(invitedList(editor)).toContainText('Invited once');

  const last =
    await test.step('Re-send mails again, one mail a press, until the flood is refused', async () => {
      const resend = editor.getByRole('button', {
        name: inviteToText(PARTICIPATION_TEXTS.resendInvitation, newcomer),
      });
      let latest = mail;
      for (let sent = 1; sent < INVITATIONS_PER_ADDRESS_PER_HOUR; sent++) {
        latest = await nextInvitation(newcomer, () => resend.click());
        await expect(invitedList(editor)).toContainText(`Invited ${sent + 1} times`);
      }
      await resend.click();
      await expect(invitedList(editor).getByRole('alert')).toContainText(
        `invited ${INVITATIONS_PER_ADDRESS_PER_HOUR} times`,
      );
      expect(invitationCount(newcomer)).toBe(INVITATIONS_PER_ADDRESS_PER_HOUR);
      return latest;
    });
  await people(editor).scrollIntoViewIfNeeded();
  await capture(editor, 'editor-people-invited', people(editor));

  await test.step('the invitation signs the newcomer up and opens the live session', async () => {
    const context = await browser.newContext({ baseURL: stack().baseUrl });
    const page = await context.newPage();
    await page.goto(last.link);
    // An invitation was not asked for in this browser: the person confirms it is their address.
    await page.getByRole('button', { name: continueAsText(newcomer) }).click();
    await signUpAsParticipant(page, newcomer, 'Nia Newcomer');
    await expectLive(page, sessionId, title);
    await context.close();
  });

  await test.step('the editor lists the newcomer as joined', async () => {
    await editor.reload();
    await expect(joinedList(editor).getByText(newcomer)).toBeVisible();
    await expect(joinedList(editor)).toContainText(SOURCE_LABELS.scope);
    await expect(invitedList(editor)).toHaveCount(0);
  });
  await editor.context().close();
});

test("a join link with a panel's ids adds a newcomer, whose ids show in People and in the export", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = 'Panel study';
  const owner = await researcher('join-rhea', 'Rhea Recruiter');
  const sessionId = await seedChatSession(owner, title);
  const editor = await openEditor(browser, owner, sessionId);

  await joinLinkSection(editor).getByRole('button', { name: PARTICIPATION_TEXTS.makeLink }).click();
  const share = joinLinkSection(editor).getByLabel(PARTICIPATION_TEXTS.linkToShare);
  await expect(share).toHaveValue(new RegExp(`${JOIN_PATH}/[A-Za-z0-9_-]{43}$`));
  const joinUrl = await share.inputValue();
  await expect(joinLinkSection(editor)).toContainText('0 joined, no cap');

  const newcomer = emailOf('join-pia');
  await test.step('signed out, the link leads through sign-in and sign-up to the live session', async () => {
    const context = await browser.newContext({ baseURL: stack().baseUrl });
    const page = await context.newPage();
    await page.goto(`${joinUrl}?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9`);
    // The landing page offers an e-mail sign-in instead of starting without one: the login screen
    // at / (spec section 2), keeping the link to come back to.
    await page.getByRole('link', { name: JOIN_LANDING_TEXTS.haveAccount }).click();
    await expect(page).toHaveURL(/\/$/);
    const magicLink = await nextMagicLink(newcomer, async () => {
      await page.getByLabel(SIGN_IN_TEXTS.email).fill(newcomer);
      await page.getByRole('button', { name: SIGN_IN_TEXTS.enter }).click();
    });
    expect(new URL(magicLink).searchParams.get('next')).toBe(
      `${new URL(joinUrl).pathname}?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9`,
    );
    await page.goto(magicLink);
    await signUpAsParticipant(page, newcomer, 'Pia Panel', { throughJoinLink: true });
    await page.getByRole('button', { name: JOIN_TEXTS.join }).click();
    await expectLive(page, sessionId, title);
    await context.close();
  });

  await test.step("the editor's People shows the panel ids", async () => {
    await editor.reload();
    const person = joinedList(editor).getByRole('listitem').filter({ hasText: newcomer });
    await expect(person).toContainText('Join link');
    const ids = person.getByLabel(`Panel ids of ${newcomer}`);
    await expect(ids).toContainText('PROLIFIC_PID');
    await expect(ids).toContainText('abc123');
    await expect(joinLinkSection(editor)).toContainText('1 joined, no cap');
    await people(editor).evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await capture(editor, 'editor-people-join-link', people(editor));
    await expectAccessible(editor, 'editor: People and Join link');
  });

  await test.step("the study export's identifiers.csv has the ids, a column each", async () => {
    const answer = await fetch(`${stack().baseUrl}/exportStudy?sessionId=${sessionId}&identifiers=true`, {
      headers: { Authorization: `Bearer ${owner.accessToken}` },
    });
    expect(answer.status).toBe(200);
    const files = unzip(Buffer.from(await answer.arrayBuffer()));
    const table = (name: 'participants' | 'identifiers') => {
      const csv = files.get(studyExportFileName(name));
      expect(csv, `${name}.csv in the archive`).toBeDefined();
      const [header = [], ...rows] = parseCsv(csv!.toString('utf8'));
      return rows.map((cells) => Object.fromEntries(header.map((column, i) => [column, cells[i] ?? ''])));
    };
    const who = table('identifiers').find((row) => row.email === newcomer);
    expect(who, `${newcomer} in identifiers.csv`).toMatchObject({
      panel_PROLIFIC_PID: 'abc123',
      panel_STUDY_ID: 's1',
      panel_SESSION_ID: 'x9',
    });
    const row = table('participants').find((cells) => cells.participant_id === who!.participant_id);
    expect(row, `${newcomer} in participants.csv`).toMatchObject({ source: 'link' });
  });
  await editor.context().close();
});

test('a revoked join link says so; a capped one refuses the next person as full', async ({ browser }) => {
  test.setTimeout(120_000);
  const title = 'Capped study';
  const owner = await researcher('cap-rhea', 'Rhea Capper');
  const sessionId = await seedChatSession(owner, title);
  const [first, second] = await Promise.all([
    signUpThroughApi(emailOf('cap-ann'), 'Ann First'),
    signUpThroughApi(emailOf('cap-bo'), 'Bo Second'),
  ]);
  const editor = await openEditor(browser, owner, sessionId);
  const section = joinLinkSection(editor);

  /** Opens a link in a context signed in as `person` and answers the page. */
  const follow = async (person: { accessToken: string; refreshToken: string }, url: string) => {
    const { baseUrl } = stack();
    const context = await browser.newContext({ baseURL: baseUrl });
    await context.addCookies([
      { name: TOKEN_COOKIES.accessToken, value: person.accessToken, url: baseUrl, sameSite: 'Lax' },
      { name: TOKEN_COOKIES.refreshToken, value: person.refreshToken, url: baseUrl, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    await page.goto(url);
    // The link asks before it joins (its author learns nothing of who only followed it).
    await page.getByRole('button', { name: JOIN_TEXTS.join }).click();
    return page;
  };

  await test.step('a revoked link adds nobody and says so', async () => {
    await section.getByRole('button', { name: PARTICIPATION_TEXTS.makeLink }).click();
    const revoked = await section.getByLabel(PARTICIPATION_TEXTS.linkToShare).inputValue();
    await section.getByRole('button', { name: PARTICIPATION_TEXTS.revoke, exact: true }).click();
    await editor.getByRole('button', { name: PARTICIPATION_TEXTS.revokeLink }).click();
    await expect(section.getByRole('button', { name: PARTICIPATION_TEXTS.makeLink })).toBeVisible();
    const page = await follow(first, revoked);
    await expect(page.getByRole('heading', { name: 'You could not join this session' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(/does not work|revoked/);
    await capture(page, 'join-link-refused');
    await expectAccessible(page, 'join link refused');
    await page.getByRole('link', { name: 'Back to your sessions' }).click();
    await expect(page).toHaveURL(/\/sessions$/);
    await page.context().close();
  });

  await test.step('a link capped at one takes the first person and refuses the next as full', async () => {
    await section.getByLabel('Most participants (optional)').fill('1');
    await section.getByRole('button', { name: PARTICIPATION_TEXTS.makeLink }).click();
    await expect(section).toContainText('0 joined of at most 1');
    const capped = await section.getByLabel(PARTICIPATION_TEXTS.linkToShare).inputValue();
    const firstPage = await follow(first, capped);
    await expectLive(firstPage, sessionId, title);
    await firstPage.context().close();
    const secondPage = await follow(second, capped);
    await expect(secondPage.getByRole('heading', { name: 'You could not join this session' })).toBeVisible();
    await expect(secondPage.getByRole('alert')).toContainText(/full/);
    await secondPage.context().close();
  });
  await editor.context().close();
});

test("a join link followed signed out comes back after the provider's sign-in (the SPA is left and reloaded)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = 'Provider study';
  const owner = await researcher('oidc-join-rhea', 'Rhea Provider');
  const sessionId = await seedChatSession(owner, title);
  const { joinLink } = await api('createJoinLink', { sessionId, maxParticipants: null }, owner.accessToken);
  const { email, name } = OIDC_TEST_ACCOUNTS['oidc-pia'];

  const context = await browser.newContext({ baseURL: stack().baseUrl });
  const page = await context.newPage();
  await page.goto(`${JOIN_PATH}/${joinLink.token}?PROLIFIC_PID=oidc1`);
  await page.getByRole('link', { name: JOIN_LANDING_TEXTS.haveAccount }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: OIDC_TEST_PROVIDER.label }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().oidcIssuer}/interaction/`));
  await page.locator('input[name="login"]').fill('oidc-pia');
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  // A new account: the provider's e-mail and name on the sign-up form (a participant's: on the way
  // to a join link nobody is offered the researcher's), then the join link.
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('button', { name: userTypeOptionName('researcher') })).toHaveCount(0);
  await expect(page.getByLabel(SIGN_UP_TEXTS.name)).toHaveValue(name);
  await page.getByRole('button', { name: SIGN_IN_TEXTS.signUp }).click();
  await page.getByRole('button', { name: JOIN_TEXTS.join }).click();
  await expectLive(page, sessionId, title);
  await context.close();

  const { people } = await api('getSessionPeople', { sessionId }, owner.accessToken);
  expect(people).toEqual([
    expect.objectContaining({ email, source: 'link', status: 'joined', panelIds: { PROLIFIC_PID: 'oidc1' } }),
  ]);
});
