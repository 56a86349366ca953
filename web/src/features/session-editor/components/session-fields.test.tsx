import { SELECT_TEXTS, UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import type { SessionInfo } from '@uis/proto';
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused, type ApiHandler } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { SessionFields } from './session-fields';
import {
  EDITOR_TEXTS,
  FIELD_HELP_TEXTS,
  SAVE_STATUS_TEXTS,
  VIDEO_DELETION_TEXTS,
  changeTypeHeading,
  changeTypeWarningText,
  notSavedText,
  scopeHelpText,
} from '../../../i18n/en/editor';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const info: SessionInfo = {
  title: 'Pilot',
  scope: 'Everyone',
  type: 'video',
  track: '',
  source: '',
  completionUrl: null,
};

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function setup(
  editSessionInfo: ApiHandler = () => ok({ message: 'Session updated.' }),
  videoName: string | null = null,
) {
  const api = fakeApi({
    '/getAllParticipants': () => ok({ participants: [{ email: 'ann@example.com', name: 'Ann' }] }),
    '/getVideoInfo': () => ok({ name: videoName }),
    '/editSessionInfo': editSessionInfo,
  });
  renderWithApi(<SessionFields sessionId={sessionId} info={info} />);
  return { edits: () => api.to('/editSessionInfo').map((request) => request.body) };
}

describe('session edits', () => {
  beforeEach(() => vi.useFakeTimers());

  it('sends the changed fields together once 1000 ms pass without a keystroke', async () => {
    const { edits } = setup();
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: 'Pilot 2' } });
    await wait(500);
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.track), { target: { value: 'T1' } });
    await wait(DEBOUNCE_MS - 1);
    expect(edits()).toEqual([]);
    await wait(1);
    expect(edits()).toEqual([{ sessionId, title: 'Pilot 2', track: 'T1' }]);
  });

  it('sends nothing when the fields end as they were, or when the title is empty', async () => {
    const { edits } = setup();
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: 'Other' } });
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: 'Pilot' } });
    await wait(DEBOUNCE_MS);
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: '  ' } });
    await wait(DEBOUNCE_MS);
    expect(edits()).toEqual([]);
    expect(screen.getByText(VALIDATION_TEXTS.empty)).toBeTruthy();
  });

  it('saves a type change at once, without the queued source, and shows the stream source box', async () => {
    const { edits } = setup();
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.type), { target: { value: 'stream' } });
    await wait(0);
    expect(edits()).toEqual([{ sessionId, type: 'stream' }]);
    expect(screen.getByLabelText<HTMLInputElement>('Source').type).toBe('url');
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.type), { target: { value: 'chat' } });
    await wait(0);
    expect(screen.queryByLabelText('Source')).toBeNull();
  });

  it('asks before a type change deletes the uploaded video; Cancel keeps the type and the video', async () => {
    const { edits } = setup(undefined, 'pilot.mp4');
    await wait(0);
    const type = screen.getByLabelText<HTMLSelectElement>(EDITOR_TEXTS.type);
    fireEvent.change(type, { target: { value: 'chat' } });
    const dialog = screen.getByRole('alertdialog', { name: changeTypeHeading('chat') });
    expect(dialog.textContent).toContain(changeTypeWarningText('pilot.mp4'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await wait(DEBOUNCE_MS);
    expect(type.value).toBe('video');
    expect(edits()).toEqual([]);

    fireEvent.change(type, { target: { value: 'stream' } });
    fireEvent.click(screen.getByRole('button', { name: VIDEO_DELETION_TEXTS.changeTypeConfirm }));
    await wait(0);
    expect(edits()).toEqual([{ sessionId, type: 'stream' }]);
    expect(type.value).toBe('stream');
  });

  it('toasts a refused edit and says beside the field that it was not saved, and why', async () => {
    const error = vi.spyOn(notify, 'error');
    setup(() => refused(400, 'track: must be at most 2000 characters'));
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.track), { target: { value: 'x' } });
    await wait(DEBOUNCE_MS);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorUpdatingSessionInfo);
    const status = screen.getByText(notSavedText('track: must be at most 2000 characters'));
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.closest('.editor-field')).toBe(
      screen.getByLabelText(EDITOR_TEXTS.track).closest('.editor-field'),
    );
    expect(screen.getByLabelText(EDITOR_TEXTS.track).getAttribute('aria-invalid')).toBe('true');
  });

  it("says 'Saved' beside each field a save carried, until the field is typed in again", async () => {
    setup();
    const field = (label: string) => screen.getByLabelText(label).closest<HTMLElement>('.editor-field')!;
    const statusOf = (label: string) => field(label).querySelector('[aria-live="polite"]')!;
    expect(statusOf(EDITOR_TEXTS.title).textContent).toBe('');
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: 'Pilot 2' } });
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.track), { target: { value: 'T1' } });
    await wait(DEBOUNCE_MS - 1);
    expect(statusOf(EDITOR_TEXTS.title).textContent).toBe('');
    await wait(1);
    expect(statusOf(EDITOR_TEXTS.title).textContent).toBe(SAVE_STATUS_TEXTS.saved);
    expect(statusOf(EDITOR_TEXTS.track).textContent).toBe(SAVE_STATUS_TEXTS.saved);
    expect(statusOf(EDITOR_TEXTS.completionUrl).textContent).toBe('');
    fireEvent.change(screen.getByLabelText(EDITOR_TEXTS.title), { target: { value: 'Pilot 3' } });
    expect(statusOf(EDITOR_TEXTS.title).textContent).toBe('');
    expect(statusOf(EDITOR_TEXTS.track).textContent).toBe(SAVE_STATUS_TEXTS.saved);
  });

  it('says under Track what it is for, read with the field', () => {
    setup();
    const track = screen.getByLabelText(EDITOR_TEXTS.track);
    const help = screen.getByText(FIELD_HELP_TEXTS.track);
    expect(track.getAttribute('aria-describedby')).toBe(help.id);
  });

  it('says under Scope who can see the session: everyone, the people listed, or nobody', async () => {
    setup();
    await wait(0);
    const scope = screen.getByLabelText('Scope');
    const help = () => document.getElementById(scope.getAttribute('aria-describedby')!.split(' ').at(-1)!)!;
    expect(help().textContent).toBe(scopeHelpText(true, 0));
    expect(help().textContent).toMatch(/^Everyone: anyone signed in/);
    fireEvent.keyDown(scope, { key: 'ArrowDown' });
    fireEvent.click(screen.getByText('Ann (ann@example.com)'));
    expect(help().textContent).toBe(scopeHelpText(false, 1));
    expect(help().textContent).toMatch(/^Only the 1 person listed/);
    fireEvent.keyDown(scope, { key: 'Backspace' });
    expect(help().textContent).toBe(scopeHelpText(false, 0));
    expect(help().textContent).toMatch(/^Nobody/);
  });

  it('offers the scope picker with Everyone by default and the spec select texts', async () => {
    setup();
    const scope = screen.getByLabelText('Scope');
    expect(screen.getByText('Everyone')).toBeTruthy();
    fireEvent.keyDown(scope, { key: 'ArrowDown' });
    expect(screen.getByText(SELECT_TEXTS.loading)).toBeTruthy();
    await wait(0);
    expect(screen.getByText('Ann (ann@example.com)')).toBeTruthy();
    fireEvent.change(scope, { target: { value: 'zzz' } });
    expect(screen.getByText(SELECT_TEXTS.noOptions)).toBeTruthy();
  });

  it('picks a participant in place of Everyone, and shows the placeholder when nobody is in scope', async () => {
    const { edits } = setup();
    await wait(0);
    fireEvent.keyDown(screen.getByLabelText('Scope'), { key: 'ArrowDown' });
    fireEvent.click(screen.getByText('Ann (ann@example.com)'));
    await wait(DEBOUNCE_MS);
    expect(edits()).toEqual([{ sessionId, scope: ['ann@example.com'] }]);
    fireEvent.keyDown(screen.getByLabelText('Scope'), { key: 'Backspace' });
    expect(screen.getByText(SELECT_TEXTS.placeholder)).toBeTruthy();
    await wait(DEBOUNCE_MS);
    expect(edits()).toEqual([
      { sessionId, scope: ['ann@example.com'] },
      { sessionId, scope: [] },
    ]);
  });

  it('saves the completion URL, and an emptied box as null (no URL)', async () => {
    const { edits } = setup();
    const box = screen.getByLabelText<HTMLInputElement>(EDITOR_TEXTS.completionUrl);
    expect(box.type).toBe('url');
    fireEvent.change(box, { target: { value: 'https://survey.example.org/thanks' } });
    await wait(DEBOUNCE_MS);
    fireEvent.change(box, { target: { value: ' ' } });
    await wait(DEBOUNCE_MS);
    expect(edits()).toEqual([
      { sessionId, completionUrl: 'https://survey.example.org/thanks' },
      { sessionId, completionUrl: null },
    ]);
  });
});
