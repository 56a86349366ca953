import type { DataExportTable } from '@uis/proto';
import { VALIDATION_TEXTS, sessionExportFileName } from '@uis/proto/browser';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import { accessTokenOf, api, signUpThroughApi } from './support/api';
import { parseCsv } from './support/csv';
import { newSessionInEditor, saved } from './support/dashboard';
import { capture } from './support/screenshots';
import { expect, test } from './support/test';
import { emailOf, signUpResearcher } from './support/users';
import { RECORD_PANEL_TEXTS } from '../src/i18n/en/records';

/** A participant_id: people are pseudonymous in the exports (e-mails only in the study export's identifiers.csv). */
const PARTICIPANT_ID = /^P-[0-9a-f]{12}$/;

/** Clicks Export and answers the downloaded file's name and its cells (UTF-8, no byte order mark). */
async function exportTab(page: Page): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  const text = fs.readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF'), 'the export has no byte order mark').toBe(false);
  return { name: download.suggestedFilename(), rows: parseCsv(text) };
}

test('the record panel shows records seeded through the API, edits and deletes a message, and exports each tab named after the session', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const rosalind = emailOf('rosalind');
  const marie = emailOf('marie');
  const participant = await signUpThroughApi(marie, 'Marie Curie');
  await signUpResearcher(page, rosalind, 'Rosalind Franklin');
  const sessionId = await newSessionInEditor(page);
  const token = await accessTokenOf(context);

  // The session's scope is Everyone, and it is opened (as the editor's Open now does), so the
  // participant may write in it too.
  await api('editSessionInfo', { sessionId, state: 'live' }, token);
  await api('addMessage', { sessionId, message: 'Welcome, everyone' }, token);
  await api('addMessage', { sessionId, message: 'The "red" button, top left' }, participant.accessToken);
  await api('addMessage', { sessionId, message: 'Thanks for joining' }, token);
  await api('addPixel', { sessionId, x: 0.25, y: 0.5, color: 'rgb(233, 30, 99)', videoTime: 12.5 }, token);
  await api('addPixel', { sessionId, x: 1, y: 0, color: 'n/a' }, token);
  await api('addPrompt', { sessionId, time: '00:01:30', duration: 5, prompt: 'Rate, from 1 to 5' }, token);
  await page.reload();
  const { sessionInfo } = await api('getSessionInfo', { sessionId }, token);
  const fileOf = (table: DataExportTable) => sessionExportFileName(sessionInfo.title, table);

  const records = page.getByRole('region', { name: 'Records' });
  const messages = records.getByRole('listitem');

  await test.step('Messages: who and text of each, oldest first', async () => {
    await expect(records.getByRole('tab', { name: 'Messages' })).toHaveAttribute('aria-selected', 'true');
    await expect(messages).toHaveCount(3);
    await expect(messages.nth(0)).toContainText('Rosalind Franklin');
    await expect(messages.nth(0).getByRole('textbox')).toHaveValue('Welcome, everyone');
    await expect(messages.nth(1)).toContainText('Marie Curie');
    await expect(messages.nth(1).getByRole('textbox', { name: 'Message from Marie Curie' })).toHaveValue(
      'The "red" button, top left',
    );
    await capture(page, 'records-messages', records);
  });

  await test.step('edits a message: read-only until the edit icon, empty refused, saved after the pause', async () => {
    const row = messages.nth(0);
    const text = row.getByRole('textbox');
    await expect(text).not.toBeEditable();
    await row.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }).click();
    await expect(text).toBeEditable();
    await text.fill('');
    await expect(row.getByText(VALIDATION_TEXTS.empty)).toBeVisible();
    await saved(page, '/editMessage', () => text.fill('Welcome, everyone!\nPlease keep your camera on.'));
    await expect(text).not.toBeEditable();
    await page.reload();
    await expect(messages.nth(0).getByRole('textbox')).toHaveValue(
      'Welcome, everyone!\nPlease keep your camera on.',
    );
  });

  await test.step('deletes a message after asking, and can take the deletion back for a while', async () => {
    const last = messages.filter({ hasText: 'Rosalind Franklin' }).last();
    const dialog = page.getByRole('alertdialog', { name: RECORD_PANEL_TEXTS.deleteMessageHeading });
    const confirm = dialog.getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage });
    await messages.nth(2).getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }).click();
    await expect(dialog).toContainText('Thanks for joining');
    await confirm.click();
    await expect(messages).toHaveCount(2);
    await page.getByRole('button', { name: RECORD_PANEL_TEXTS.undo }).click();
    await expect(messages).toHaveCount(3);
    await expect(last.getByRole('textbox')).toHaveValue('Thanks for joining');
    await messages.nth(2).getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }).click();
    // The deletion is held for its Undo (UNDO_MS) before it is sent.
    await saved(page, '/deleteMessage', () => confirm.click());
    await expect(messages).toHaveCount(2);
    await expect(records.getByText('Thanks for joining')).toHaveCount(0);
  });

  await test.step('exports the messages', async () => {
    const { name, rows } = await exportTab(page);
    expect(name).toBe(fileOf('messages'));
    expect(rows[0]).toEqual([
      'session_id',
      'message_id',
      'seq',
      'participant_id',
      'sent_at',
      'video_time_ms',
      'message',
      'action_id',
      'edited',
      'original_text',
    ]);
    // Typed over REST: no video time, not a reaction; the first one edited, its text as written kept.
    expect(
      rows
        .slice(1)
        .map(([session, , , who, , at, text, action, edited, original]) => [
          session,
          who?.replace(PARTICIPANT_ID, 'P-…'),
          at,
          text,
          action,
          edited,
          original,
        ]),
    ).toEqual([
      [
        sessionId,
        'P-…',
        '',
        'Welcome, everyone!\nPlease keep your camera on.',
        '',
        'true',
        'Welcome, everyone',
      ],
      [sessionId, 'P-…', '', 'The "red" button, top left', '', 'false', ''],
    ]);
    expect(rows[1]![3]).not.toBe(rows[2]![3]);
    expect(JSON.stringify(rows)).not.toContain(rosalind);
    expect(JSON.stringify(rows)).not.toContain(marie);
  });

  await test.step('Pixels: who, time, x, y, colour swatch; one deleted; exported', async () => {
    await records.getByRole('tab', { name: 'Pixels' }).click();
    const rows = records.getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('Who');
    await expect(rows.nth(1)).toContainText('Rosalind Franklin');
    await expect(rows.nth(1)).toContainText('25%');
    await expect(rows.nth(1)).toContainText('50%');
    await expect(rows.nth(1).getByRole('img', { name: 'rgb(233, 30, 99)' })).toBeVisible();
    await expect(rows.nth(2)).toContainText('n/a');
    await capture(page, 'records-pixels', records);

    const exported = await exportTab(page);
    expect(exported.name).toBe(fileOf('pixels'));
    expect(exported.rows[0]).toEqual([
      'session_id',
      'pixel_id',
      'participant_id',
      'clicked_at',
      'video_time_ms',
      'x',
      'y',
      'color',
    ]);
    expect(
      exported.rows
        .slice(1)
        .map(([session, , who, , at, x, y, color]) => [
          session,
          who?.replace(PARTICIPANT_ID, 'P-…'),
          at,
          x,
          y,
          color,
        ]),
    ).toEqual([
      [sessionId, 'P-…', '12500', '0.25', '0.5', 'rgb(233, 30, 99)'],
      [sessionId, 'P-…', '', '1', '0', 'n/a'],
    ]);

    await saved(page, '/deletePixel', () =>
      rows.nth(2).getByRole('button', { name: RECORD_PANEL_TEXTS.deleteClick }).click(),
    );
    await expect(rows).toHaveCount(2);
  });

  await test.step('Prompts: listed and exported (the prompts, not the pixels)', async () => {
    await records.getByRole('tab', { name: 'Prompts' }).click();
    const rows = records.getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('00:01:30');
    await expect(rows.nth(1)).toContainText('Rate, from 1 to 5');
    await capture(page, 'records-prompts', records);

    const exported = await exportTab(page);
    expect(exported.name).toBe(fileOf('prompts'));
    expect(exported.rows[0]).toEqual(['session_id', 'prompt_id', 'video_time_ms', 'duration_ms', 'prompt']);
    expect(exported.rows.slice(1).map(([, , time, duration, text]) => [time, duration, text])).toEqual([
      ['90000', '5000', 'Rate, from 1 to 5'],
    ]);
  });
});
