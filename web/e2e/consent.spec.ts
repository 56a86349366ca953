/// <reference types="node" />
import { LiveConnection } from '@uis/live-client';
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { api } from './support/api';
import { parseCsv } from './support/csv';
import {
  contextFor,
  expect,
  livePath,
  seedVideoSession,
  signUp,
  test,
  waitUntilLive,
  type Person,
} from './support/live-session';
import { OUTPUT_DIR } from './support/paths';
import { capture } from './support/screenshots';
import { stack } from './support/stack-env';
import { emailOf } from './support/users';
import { COMMON_TEXTS, deletedText } from '../src/i18n/en/common';
import { CONSENT_TEXTS, withdrawalDeletedText } from '../src/i18n/en/consent';
import { withdrewText } from '../src/i18n/en/participant-sessions';

/**
 * Consent and withdrawal: the live screen opens only after the participant agrees to the
 * session's consent text (set in the editor), the agreement is in the study export, and a withdrawal
 * from the sessions list deletes that participant's records in that session only.
 */

const CONSENT =
  'I agree that my chat messages and clicks in this session are recorded for the study.\n\nYou may withdraw at any time from your sessions list.';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A file of the study export the editor's button downloads, as rows keyed by the header. */
async function exportedTable(editor: Page, file: string): Promise<Record<string, string>[]> {
  const [download] = await Promise.all([
    editor.waitForEvent('download'),
    editor.getByRole('link', { name: COMMON_TEXTS.exportStudy }).click(),
  ]);
  const zip = path.join(OUTPUT_DIR, `consent-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(zip);
  const [header = [], ...rows] = parseCsv(execFileSync('unzip', ['-p', zip, file], { encoding: 'utf8' }));
  return rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i] ?? ''])));
}

/** A live connection from the test itself (the app's own client), joined to a session. */
async function joined(person: Person, sessionId: string): Promise<LiveConnection> {
  const live = new LiveConnection({ url: stack().baseUrl, accessToken: () => person.accessToken });
  await live.connected();
  const answer = await live.join(sessionId);
  if (answer.status !== 'SUCCESS') throw new Error(`join refused: ${JSON.stringify(answer.res)}`);
  return live;
}

test('consent is asked before the live screen opens, and the agreement is in the study export', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const [rhea, pat] = await Promise.all([
    signUp(emailOf('consent-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('consent-pat'), 'Pat Participant'),
  ]);
  const { sessionId } = await seedVideoSession(rhea, { title: 'Recorded viewing' });
  // Pat's only: other tests' participants would list a session open to everyone.
  await api('editSessionInfo', { sessionId, scope: [pat.email] }, rhea.accessToken);
  const [deskContext, patContext] = await Promise.all([contextFor(browser, rhea), contextFor(browser, pat)]);
  const [editor, patPage] = await Promise.all([deskContext.newPage(), patContext.newPage()]);

  await test.step('the researcher writes the consent text in the editor and saves it', async () => {
    await editor.goto(`/editSession/:${sessionId}`);
    const field = editor.getByRole('textbox', { name: COMMON_TEXTS.consentText });
    await field.fill(CONSENT);
    await editor.getByRole('button', { name: 'Save consent text' }).click();
    await expect(editor.getByText('Consent text saved as version 1')).toBeVisible();
    await expect(editor.getByText(/Version 1, saved .*: 0 participants agreed to it\./)).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Save consent text' })).toBeDisabled();
  });

  await test.step('the participant sees the text, not the live screen, until they agree', async () => {
    await patPage.goto(livePath(sessionId));
    await expect(patPage.getByRole('heading', { name: 'Before you join' })).toBeVisible();
    await expect(patPage.getByRole('document', { name: COMMON_TEXTS.consentText })).toHaveText(CONSENT);
    await expect(patPage.getByText('Recorded viewing')).toBeVisible();
    await expect(patPage.locator('video')).toHaveCount(0);
    await expect(patPage.getByRole('log', { name: 'Chat messages' })).toHaveCount(0);
    await capture(patPage, 'consent', patPage.getByRole('button', { name: 'I agree' }));
    // The server refuses them too, whatever the page shows.
    const pats = new LiveConnection({ url: stack().baseUrl, accessToken: () => pat.accessToken });
    await pats.connected();
    expect(await pats.join(sessionId)).toEqual({
      status: 'ERROR',
      res: { code: 'CONSENT_REQUIRED', message: expect.stringContaining('consent text') },
    });
    pats.close();

    await patPage.getByRole('button', { name: 'I agree' }).click();
    await waitUntilLive(patPage);
    await expect(patPage.getByRole('heading', { name: 'Before you join' })).toHaveCount(0);
    const box = patPage.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Agreed and here');
    await box.press('Enter');
    await expect(
      patPage.getByRole('log', { name: 'Chat messages' }).getByText('Agreed and here'),
    ).toBeVisible();
    // Back again later: agreed already, straight in.
    await patPage.reload();
    await waitUntilLive(patPage);
  });

  await test.step('the researcher sees the agreement, and the export holds it with the hash of the text', async () => {
    await editor.reload();
    await expect(editor.getByText(/Version 1, saved .*: 1 participant agreed to it\./)).toBeVisible();
    await editor.getByText('Agreements (1)').click();
    await expect(editor.getByRole('list', { name: CONSENT_TEXTS.agreements })).toContainText(
      'Pat Participant',
    );
    const consents = await exportedTable(editor, 'consents.csv');
    expect(consents).toEqual([
      {
        session_id: sessionId,
        participant_id: expect.stringMatching(/^P-[0-9a-f]{12}$/),
        version: '1',
        sha256: sha256(CONSENT),
        accepted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        withdrawn_at: '',
      },
    ]);
    const texts = await exportedTable(editor, 'consent-texts.csv');
    expect(texts).toEqual([
      {
        session_id: sessionId,
        version: '1',
        sha256: sha256(CONSENT),
        created_at: expect.any(String),
        text: CONSENT,
      },
    ]);
  });
  await Promise.all([deskContext.close(), patContext.close()]);
});

test("a withdrawal deletes that participant's records in that session only", async ({ browser }) => {
  test.setTimeout(150_000);
  const [rhea, pat, pam] = await Promise.all([
    signUp(emailOf('withdraw-rhea'), 'Rhea Researcher', 'researcher'),
    signUp(emailOf('withdraw-pat'), 'Pat Withdrawing'),
    signUp(emailOf('withdraw-pam'), 'Pam Staying'),
  ]);
  const left = await seedVideoSession(rhea, { title: 'Session Pat leaves' });
  const kept = await seedVideoSession(rhea, { title: 'Session Pat keeps' });
  for (const { sessionId } of [left, kept]) {
    await api('editSessionInfo', { sessionId, scope: [pat.email, pam.email] }, rhea.accessToken);
  }

  // Messages and clicks through the live session, as the pages send them.
  const connections: LiveConnection[] = [];
  const live = async (person: Person, sessionId: string) => {
    const connection = await joined(person, sessionId);
    connections.push(connection);
    return connection;
  };
  for (const { sessionId } of [left, kept]) {
    const desk = await live(rhea, sessionId);
    expect((await desk.ask('toggleParticipantClicks', { sessionId, allowClicks: true })).status).toBe(
      'SUCCESS',
    );
    for (const person of sessionId === left.sessionId ? [pat, pam] : [pat]) {
      const connection = await live(person, sessionId);
      expect((await connection.send(`${person.name} was here`)).kind).toBe('acknowledged');
      const click = await connection.ask('clickVideo', {
        sessionId,
        x: 0.5,
        y: 0.5,
        color: 'rgba(1, 2, 3, 1)',
      });
      expect(click.status).toBe('SUCCESS');
    }
  }
  for (const connection of connections) connection.close();
  const recordsOf = async (sessionId: string) => ({
    messages: (await api('getMessages', { sessionId }, rhea.accessToken)).messages.map((m) => m.name).sort(),
    clicks: (await api('getPixels', { sessionId }, rhea.accessToken)).pixels.map((p) => p.name).sort(),
  });
  expect(await recordsOf(left.sessionId)).toEqual({
    messages: ['Pam Staying', 'Pat Withdrawing'],
    clicks: ['Pam Staying', 'Pat Withdrawing'],
  });

  const patContext = await contextFor(browser, pat);
  const list = await patContext.newPage();
  await list.goto('/sessions');
  const sessions = list.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByText(left.title)).toBeVisible();

  await test.step('the dialog says what is deleted; Cancel changes nothing', async () => {
    await sessions.getByRole('button', { name: `Withdraw from ${left.title}` }).click();
    const dialog = list.getByRole('alertdialog', { name: `Withdraw from “${left.title}”?` });
    await expect(dialog).toContainText(
      'Your chat messages, reactions and clicks in this session will be deleted',
    );
    await capture(list, 'withdraw');
    await dialog.getByRole('button', { name: COMMON_TEXTS.cancel }).click();
    await expect(dialog).toHaveCount(0);
    expect((await recordsOf(left.sessionId)).messages).toContain('Pat Withdrawing');
  });

  await test.step('confirmed: the session leaves the list, and only its records of Pat are gone', async () => {
    await sessions.getByRole('button', { name: `Withdraw from ${left.title}` }).click();
    await list.getByRole('button', { name: 'Withdraw and delete my data' }).click();
    await expect(
      list.getByText(withdrewText(left.title, deletedText({ messages: 1, clicks: 1 }))),
    ).toBeVisible();
    await expect(sessions.getByText(left.title)).toHaveCount(0);
    await expect(sessions.getByText(kept.title)).toBeVisible();

    expect(await recordsOf(left.sessionId)).toEqual({ messages: ['Pam Staying'], clicks: ['Pam Staying'] });
    expect(await recordsOf(kept.sessionId)).toEqual({
      messages: ['Pat Withdrawing'],
      clicks: ['Pat Withdrawing'],
    });
  });

  await test.step('the researcher sees the withdrawal in the editor and in the export', async () => {
    const deskContext = await contextFor(browser, rhea);
    const editor = await deskContext.newPage();
    await editor.goto(`/editSession/:${left.sessionId}`);
    const withdrawals = editor.getByRole('list', { name: CONSENT_TEXTS.withdrawals });
    await expect(withdrawals).toContainText('Pat Withdrawing');
    await expect(withdrawals).toContainText(withdrawalDeletedText(deletedText({ messages: 1, clicks: 1 })));
    const rows = await exportedTable(editor, 'withdrawals.csv');
    expect(rows).toEqual([
      expect.objectContaining({
        session_id: left.sessionId,
        participant_id: expect.stringMatching(/^P-[0-9a-f]{12}$/),
        messages_deleted: '1',
        clicks_deleted: '1',
      }),
    ]);
    await editor.goto(`/editSession/:${kept.sessionId}`);
    await expect(editor.getByText('No participant has withdrawn.')).toBeVisible();
    await deskContext.close();
  });
  await patContext.close();
});
