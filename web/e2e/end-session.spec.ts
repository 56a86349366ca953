import { JOIN_PATH } from '@uis/proto/browser';
import { api, enterSession } from './support/api';
import { expectAccessible } from './support/axe';
import { capture } from './support/screenshots';
import {
  chatLog,
  contextFor,
  expect,
  livePath,
  openLive,
  seedVideoSession,
  signUp,
  test,
  waitUntilLive,
} from './support/live-session';
import { stack } from './support/stack-env';
import { emailOf } from './support/users';
import { COMMON_TEXTS, JOIN_TEXTS } from '../src/i18n/en/common';
import { JOIN_SESSION_PAGE_TEXTS } from '../src/i18n/en/join-session';
import { LIVE_SESSION_TEXTS } from '../src/i18n/en/live-session';

test('the researcher ends the session: the participant is told, then sent to the completion URL', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [rhea, pat] = await Promise.all([
    signUp(emailOf('end-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('end-pat'), 'Pat Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Ending viewing' });
  // On the app's own origin, so no outside network is needed.
  const completionUrl = `${stack().baseUrl}/sessions?completed=1`;
  await api('editSessionInfo', { sessionId, completionUrl }, rhea.accessToken);

  const [deskContext, patContext] = await Promise.all([contextFor(browser, rhea), contextFor(browser, pat)]);
  const [desk, patPage] = await Promise.all([deskContext.newPage(), patContext.newPage()]);
  await Promise.all([openLive(desk, sessionId), openLive(patPage, sessionId)]);

  // A confirm step first: Cancel changes nothing.
  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.endSession }).click();
  await desk.getByRole('button', { name: COMMON_TEXTS.cancel }).click();
  await expect(patPage.getByText(LIVE_SESSION_TEXTS.ended)).toHaveCount(0);

  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.endSession }).click();
  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.yesEndSession }).click();
  await expect(desk.getByRole('heading', { name: LIVE_SESSION_TEXTS.ended })).toBeVisible();
  await expect(patPage.getByRole('heading', { name: LIVE_SESSION_TEXTS.ended })).toBeVisible();
  await expect(patPage.getByRole('link', { name: 'Continue now' })).toHaveAttribute('href', completionUrl);
  await patPage.waitForURL(completionUrl, { timeout: 15_000 });
  // The researcher stays on the ended screen.
  await expect(desk.getByRole('heading', { name: LIVE_SESSION_TEXTS.ended })).toBeVisible();
  await Promise.all([deskContext.close(), patContext.close()]);
});

test('an ended session is closed: a reload, its join link and a late participant find it ended, until the researcher reopens it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [rhea, pat, lou] = await Promise.all([
    signUp(emailOf('closed-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('closed-pat'), 'Pat Participant'),
    signUp(emailOf('closed-lou'), 'Lou Late'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Closed viewing' });
  const { joinLink } = await api('createJoinLink', { sessionId, maxParticipants: null }, rhea.accessToken);
  const [deskContext, patContext, louContext] = await Promise.all([
    contextFor(browser, rhea),
    contextFor(browser, pat),
    contextFor(browser, lou),
  ]);
  const [desk, patPage, louPage] = await Promise.all([
    deskContext.newPage(),
    patContext.newPage(),
    louContext.newPage(),
  ]);
  await Promise.all([openLive(desk, sessionId), openLive(patPage, sessionId)]);
  await patPage.getByRole('textbox', { name: LIVE_SESSION_TEXTS.message }).fill('Before the end');
  await patPage.keyboard.press('Enter');
  await expect(chatLog(desk)).toContainText('Before the end');

  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.endSession }).click();
  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.yesEndSession }).click();
  await expect(patPage.getByRole('heading', { name: LIVE_SESSION_TEXTS.ended })).toBeVisible();

  // Pat reloads: no room, no chat of the previous run, nothing to write in.
  await patPage.reload();
  await expect(patPage.getByRole('alert')).toContainText(LIVE_SESSION_TEXTS.closedToLateParticipant);
  await expect(chatLog(patPage)).toHaveCount(0);
  await expect(patPage.getByRole('textbox', { name: LIVE_SESSION_TEXTS.message })).toHaveCount(0);
  await expectAccessible(patPage, 'a session found ended');
  // Lou follows the join link after the end: told it ended, and where to go.
  await louPage.goto(`${JOIN_PATH}/${joinLink.token}`);
  await louPage.getByRole('button', { name: JOIN_TEXTS.join }).click();
  await expect(louPage.getByRole('alert')).toContainText(JOIN_SESSION_PAGE_TEXTS.ended);

  // The researcher's reload offers the reopening; reopened, Pat's reload is back in the room.
  await desk.reload();
  await expect(desk.getByRole('alert')).toContainText(LIVE_SESSION_TEXTS.closedToOwner);
  await capture(desk, 'live-closed');
  await desk.getByRole('button', { name: LIVE_SESSION_TEXTS.reopenSession }).click();
  await expect(desk.getByRole('button', { name: LIVE_SESSION_TEXTS.endSession })).toBeVisible();
  await patPage.reload();
  await waitUntilLive(patPage);
  await expect(chatLog(patPage)).toContainText('Before the end');
  const playback = await api('getPlayback', { sessionId }, rhea.accessToken);
  expect(
    playback.playback.map((entry) => entry.event).filter((event) => event !== 'play' && event !== 'pause'),
  ).toEqual(['end', 'reopen']);
  await Promise.all([deskContext.close(), patContext.close(), louContext.close()]);
});

test('a participant who comes before the start waits, and goes in when the researcher opens the live page', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [rhea, pat] = await Promise.all([
    signUp(emailOf('wait-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('wait-pat'), 'Pat Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Waiting viewing', live: false });
  const [deskContext, patContext] = await Promise.all([contextFor(browser, rhea), contextFor(browser, pat)]);
  const [desk, patPage] = await Promise.all([deskContext.newPage(), patContext.newPage()]);
  await enterSession(sessionId, pat.accessToken);
  await patPage.goto(livePath(sessionId));
  await expect(patPage.getByRole('status').filter({ hasText: LIVE_SESSION_TEXTS.notStarted })).toBeVisible();
  await expect(patPage.locator('video')).toHaveCount(0);
  await expectAccessible(patPage, 'waiting for the start');
  await capture(patPage, 'live-waiting');

  await openLive(desk, sessionId);
  await waitUntilLive(patPage);
  await patPage.getByRole('textbox', { name: LIVE_SESSION_TEXTS.message }).fill('Here from the start');
  await patPage.keyboard.press('Enter');
  await expect(chatLog(desk)).toContainText('Here from the start');
  await Promise.all([deskContext.close(), patContext.close()]);
});
