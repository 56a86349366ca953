import { api } from './support/api';
import { contextFor, expect, openLive, seedVideoSession, signUp, test } from './support/live-session';
import { stack } from './support/stack-env';
import { emailOf } from './support/users';
import { COMMON_TEXTS } from '../src/i18n/en/common';
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
