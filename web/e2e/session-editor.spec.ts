import { TINY_MP4 } from '@uis/kit/testing';
import { EVERYONE, SCREEN_TEXTS, UPLOAD_ACCEPT, VALIDATION_TEXTS } from '@uis/proto/browser';
import { accessTokenOf, api, signUpThroughApi } from './support/api';
import { newSessionInEditor, saved } from './support/dashboard';
import { DESKTOP, MOBILE, capture } from './support/screenshots';
import { expect, test } from './support/test';
import { emailOf, signUpResearcher } from './support/users';
import { EDITOR_TEXTS, FIELD_HELP_TEXTS, SAVE_STATUS_TEXTS, scopeHelpText } from '../src/i18n/en/editor';

const STREAM_URL = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

test('the session editor saves every field: title, scope, type, source, track, an action and a prompt', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const grace = emailOf('grace');
  await signUpThroughApi(grace, 'Grace Hopper');
  await signUpResearcher(page, emailOf('edith'), 'Edith Clarke');
  const token = await accessTokenOf(context);
  // Grace took part in an earlier session of Edith's: the scope picker's directory lists her (it
  // lists the people of the researcher's own sessions).
  const earlier = (await api('createGroup', { title: 'Earlier study' }, token)).group.group_id;
  const { session } = await api('createSession', { groupId: earlier }, token);
  await api('editSessionInfo', { sessionId: session.session_id, scope: [grace] }, token);
  await page.reload();
  const sessionId = await newSessionInEditor(page);
  const info = async () => (await api('getSessionInfo', { sessionId }, token)).sessionInfo;

  await test.step("Title: empty says 'This field must not be empty'; a new one is saved", async () => {
    const title = page.getByLabel(EDITOR_TEXTS.title, { exact: true });
    await title.fill('');
    await expect(page.getByText(VALIDATION_TEXTS.empty)).toBeVisible();
    await saved(page, '/editSessionInfo', () => title.fill('Usability pilot'));
    await expect(page.getByText(VALIDATION_TEXTS.empty)).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Usability pilot');
  });

  await test.step('Scope: Everyone by default, then one participant', async () => {
    // The field around the Scope label shows the selection (react-select draws it as plain text).
    const scope = page.locator('.editor-field', { has: page.getByText(EDITOR_TEXTS.scope, { exact: true }) });
    await expect(scope).toContainText(EVERYONE);
    await page.getByLabel(EDITOR_TEXTS.scope).fill('Grace');
    await page.getByRole('option', { name: `Grace Hopper (${grace})` }).click();
    await page.keyboard.press('Escape');
    await expect(scope).not.toContainText(EVERYONE);
    // Beside the select, in words: who can see the session now.
    await expect(scope).toContainText(scopeHelpText(false, 1));
    await expect.poll(async () => (await info()).scope).toEqual([grace]);
  });

  await test.step('Type stream with a URL source', async () => {
    await saved(page, '/editSessionInfo', () =>
      page.getByLabel(EDITOR_TEXTS.type, { exact: true }).selectOption('stream'),
    );
    // The URL field replaces the file input once the type is saved: a textbox, which fill waits for.
    await page.getByRole('textbox', { name: 'Source', exact: true }).fill(STREAM_URL);
    await expect.poll(async () => (await info()).source).toBe(STREAM_URL);
    expect((await info()).type).toBe('stream');
  });

  await test.step('Type video: the source is cleared and an .mp4 is uploaded', async () => {
    await saved(page, '/editSessionInfo', () =>
      page.getByLabel(EDITOR_TEXTS.type, { exact: true }).selectOption('video'),
    );
    expect(await info()).toMatchObject({ type: 'video', source: '' });
    await expect(page.getByText(SCREEN_TEXTS.uploadPlaceholder)).toBeVisible();
    const upload = page.getByLabel('Source', { exact: true });
    await expect(upload).toHaveAttribute('accept', UPLOAD_ACCEPT);
    await saved(page, '/uploadVideo', () => upload.setInputFiles(TINY_MP4));
    await expect(page.getByText('tiny.mp4')).toBeVisible();
    expect((await api('getVideoInfo', { sessionId }, token)).name).toBe('tiny.mp4');
  });

  await test.step('Track: says what it is for, and that it was saved', async () => {
    const track = page.getByLabel(EDITOR_TEXTS.track, { exact: true });
    await expect(track).toHaveAccessibleDescription(FIELD_HELP_TEXTS.track);
    await track.fill('Track A: first viewing');
    await expect.poll(async () => (await info()).track).toBe('Track A: first viewing');
    const field = page.locator('.editor-field', { has: track });
    await expect(field.getByText(SAVE_STATUS_TEXTS.saved, { exact: true })).toBeVisible();
  });

  const actions = page.getByRole('region', { name: 'Actions' });
  await test.step('an action with a name, an icon found by search, a style and a colour', async () => {
    await saved(page, '/addAction', () => actions.getByRole('button', { name: 'Add action' }).click());
    const name = actions.getByRole('textbox', { name: EDITOR_TEXTS.actionName });
    await expect(name).toHaveValue('New action');
    await name.fill('');
    await expect(actions.getByText(VALIDATION_TEXTS.empty)).toBeVisible();
    await name.fill('Applause');

    await actions.getByRole('button', { name: /^Icon / }).click();
    const picker = page.getByRole('dialog', { name: EDITOR_TEXTS.chooseIcon });
    await picker.getByRole('searchbox', { name: 'Search icons' }).fill('CELEBR');
    // The search applies after its 1 s pause, lowercased: only names holding 'celebr' remain. The
    // picker opens on reaction icons, celebration among them, so the list is waited for, not the icon.
    const shown = () =>
      picker
        .locator('button[title]')
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('title') ?? ''));
    await expect
      .poll(async () => {
        const icons = await shown();
        return icons.length > 0 && icons.every((icon) => icon.includes('celebr'));
      })
      .toBe(true);
    await expect(picker.getByRole('button', { name: 'celebration', exact: true })).toBeVisible();
    await picker.getByText('outlined', { exact: true }).click();
    await capture(page, 'icon-picker');
    await picker.getByRole('button', { name: 'celebration', exact: true }).click();
    await expect(picker).toBeHidden();

    await actions.getByRole('button', { name: /^Colour / }).click();
    const colours = page.getByRole('dialog', { name: EDITOR_TEXTS.chooseColour });
    await expect(colours.getByRole('button', { name: 'Transparent' })).toBeVisible();
    await colours.getByRole('textbox', { name: EDITOR_TEXTS.hexColour }).fill('#e91e63');
    await capture(page, 'colour-picker');
    await page.keyboard.press('Escape');
    await expect(colours).toBeHidden();

    await expect
      .poll(async () => (await api('getActions', { sessionId }, token)).actions)
      .toEqual([
        expect.objectContaining({
          name: 'Applause',
          icon: 'celebration',
          type: 'outlined',
          color: '#e91e63',
        }),
      ]);
  });

  const prompts = page.getByRole('region', { name: 'Prompts' });
  await test.step('a prompt with its text, time and duration', async () => {
    await saved(page, '/addPrompt', () => prompts.getByRole('button', { name: 'Add prompt' }).click());
    await prompts.getByRole('textbox', { name: EDITOR_TEXTS.promptTime }).fill('00:01:05');
    await prompts.getByRole('spinbutton', { name: 'Prompt duration (seconds)' }).fill('3');
    await prompts.getByRole('textbox', { name: 'Prompt text' }).fill('What do you notice?');
    await expect
      .poll(async () => (await api('getPrompts', { sessionId }, token)).prompts)
      .toEqual([expect.objectContaining({ time: 65, duration: 3, prompt: 'What do you notice?' })]);
  });

  await test.step('after a reload every field shows what was saved', async () => {
    await page.reload();
    await expect(page.getByLabel(EDITOR_TEXTS.title, { exact: true })).toHaveValue('Usability pilot');
    await expect(page.getByText(`Grace Hopper (${grace})`)).toBeVisible();
    await expect(page.getByLabel(EDITOR_TEXTS.type, { exact: true })).toHaveValue('video');
    await expect(page.getByText('tiny.mp4')).toBeVisible();
    await expect(page.getByLabel(EDITOR_TEXTS.track, { exact: true })).toHaveValue('Track A: first viewing');
    await expect(actions.getByRole('textbox', { name: EDITOR_TEXTS.actionName })).toHaveValue('Applause');
    await expect(actions.getByRole('button', { name: 'Icon celebration (outlined)' })).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Colour #e91e63' })).toBeVisible();
    await expect(prompts.getByRole('textbox', { name: EDITOR_TEXTS.promptTime })).toHaveValue('00:01:05');
    await expect(prompts.getByRole('spinbutton', { name: 'Prompt duration (seconds)' })).toHaveValue('3');
    await expect(prompts.getByRole('textbox', { name: 'Prompt text' })).toHaveValue('What do you notice?');
    await capture(page, 'session-editor');
  });

  await test.step('on a phone the edit panel folds', async () => {
    await page.setViewportSize(MOBILE);
    await page.getByRole('button', { name: EDITOR_TEXTS.hideEditPanel }).click();
    await expect(page.getByLabel(EDITOR_TEXTS.title, { exact: true })).toBeHidden();
    await page.getByRole('button', { name: EDITOR_TEXTS.showEditPanel }).click();
    await expect(page.getByLabel(EDITOR_TEXTS.title, { exact: true })).toHaveValue('Usability pilot');
    await page.setViewportSize(DESKTOP);
    await expect(page.getByRole('button', { name: EDITOR_TEXTS.hideEditPanel })).toHaveCount(0);
  });

  await test.step('Start opens the live session', async () => {
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page).toHaveURL(new RegExp(`/liveSession/:${sessionId}$`));
  });
});
