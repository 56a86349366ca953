import { UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { UNDO_MS, undoableToast } from '../../../components/ui/undoable-toast';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused, type ApiAnswer, type ApiRequest } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { MessagesTab } from './messages-tab';
import { RECORD_PANEL_TEXTS, deleteMessageWarningText } from '../../../i18n/en/records';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const messageId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

async function setup(
  editMessage: (request: ApiRequest) => ApiAnswer = () => ok({ message: 'Message updated.' }),
) {
  let text = 'hello there';
  let deleted = false;
  const api = fakeApi({
    '/getMessages': () =>
      ok({
        messages: deleted
          ? []
          : [
              {
                message_id: messageId,
                seq: '1',
                message: text,
                time: '2024-05-01T10:00:00.000Z',
                name: 'Ann',
                videoTime: 62.5,
                actionId: null,
              },
            ],
      }),
    '/deleteMessage': () => {
      deleted = true;
      return ok({ message: 'Message deleted.' });
    },
    '/editMessage': (request) => {
      const answer = editMessage(request);
      if (!('blob' in answer) && answer.httpStatus < 400)
        text = (request.body as { message: string }).message;
      return answer;
    },
  });
  renderWithApi(<MessagesTab sessionId={sessionId} />);
  await wait(0);
  return { api, box: () => screen.getByLabelText<HTMLTextAreaElement>('Message from Ann') };
}

describe('message inline editor', () => {
  beforeEach(() => vi.useFakeTimers());

  it('is read-only until the edit icon is clicked', async () => {
    const { box } = await setup();
    expect(box().readOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    expect(box().readOnly).toBe(false);
  });

  it('saves 1000 ms after the last keystroke, then leaves edit mode', async () => {
    const { api, box } = await setup();
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.change(box(), { target: { value: 'hello' } });
    await wait(700);
    fireEvent.change(box(), { target: { value: 'hello\nagain' } });
    await wait(DEBOUNCE_MS - 1);
    expect(api.to('/editMessage')).toEqual([]);
    expect(box().readOnly).toBe(false);
    await wait(1);
    expect(api.to('/editMessage').map((request) => request.body)).toEqual([
      { messageId, message: 'hello\nagain' },
    ]);
    expect(box().readOnly).toBe(true);
    expect(box().value).toBe('hello\nagain');
    await wait(0);
    // The list was refetched and holds the new text.
    expect(api.to('/getMessages')).toHaveLength(2);
    expect(box().value).toBe('hello\nagain');
  });

  it('closes with the check icon at once, and drops the typing on Escape', async () => {
    const { api, box } = await setup();
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.saveMessage }));
    expect(box().readOnly).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.change(box(), { target: { value: 'now' } });
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.saveMessage }));
    await wait(0);
    expect(api.to('/editMessage').map((request) => request.body)).toEqual([{ messageId, message: 'now' }]);

    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.change(box(), { target: { value: 'not this' } });
    fireEvent.keyDown(box(), { key: 'Escape' });
    await wait(DEBOUNCE_MS);
    expect(box().readOnly).toBe(true);
    expect(box().value).toBe('now');
    expect(api.to('/editMessage')).toHaveLength(1);
  });

  it('keeps an emptied message open with the empty-field text and sends nothing', async () => {
    const { api, box } = await setup();
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.change(box(), { target: { value: '   ' } });
    await wait(DEBOUNCE_MS);
    expect(screen.getByRole('alert').textContent).toBe(VALIDATION_TEXTS.empty);
    expect(box().readOnly).toBe(false);
    expect(api.to('/editMessage')).toEqual([]);
  });

  it('toasts a refused edit and refetches, showing the stored text again', async () => {
    const error = vi.spyOn(notify, 'error');
    const { api, box } = await setup(() => refused(400, 'message: must be at most 2000 characters'));
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.editMessage }));
    fireEvent.change(box(), { target: { value: 'changed' } });
    await wait(DEBOUNCE_MS);
    await wait(0);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorEditingMessage);
    expect(api.to('/getMessages')).toHaveLength(2);
    expect(box().value).toBe('hello there');
  });
});

describe('deleting a message', () => {
  beforeEach(() => vi.useFakeTimers());

  /** Deletes through the icon and the question; answers the Undo toast's callbacks. */
  function deleteIt() {
    const undoable = vi.spyOn(undoableToast, 'show');
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }));
    const dialog = screen.getByRole('alertdialog', { name: RECORD_PANEL_TEXTS.deleteMessageHeading });
    expect(dialog.textContent).toContain(deleteMessageWarningText('Ann', 'hello there', UNDO_MS / 1000));
    fireEvent.click(within(dialog).getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(undoable).toHaveBeenCalledOnce();
    const [text, options] = undoable.mock.calls[0]!;
    expect(text).toBe(RECORD_PANEL_TEXTS.messageDeleted);
    expect(options).toMatchObject({ undoLabel: RECORD_PANEL_TEXTS.undo, durationMs: UNDO_MS });
    return options;
  }

  it('asks first; Cancel keeps the message and sends nothing', async () => {
    const { api } = await setup();
    fireEvent.click(screen.getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await wait(UNDO_MS);
    expect(screen.getByLabelText('Message from Ann')).toBeTruthy();
    expect(api.to('/deleteMessage')).toEqual([]);
  });

  it('hides the message at once and sends the deletion only when the undo time is up', async () => {
    const { api } = await setup();
    deleteIt();
    expect(screen.queryByLabelText('Message from Ann')).toBeNull();
    await wait(UNDO_MS - 1);
    expect(api.to('/deleteMessage')).toEqual([]);
    await wait(1);
    expect(api.to('/deleteMessage').map((request) => request.body)).toEqual([{ messageId }]);
    await wait(0);
    expect(api.to('/getMessages')).toHaveLength(2);
    expect(screen.queryByLabelText('Message from Ann')).toBeNull();
  });

  it('Undo brings the message back and nothing is sent', async () => {
    const { api } = await setup();
    const { onUndo } = deleteIt();
    act(() => onUndo());
    expect(screen.getByLabelText('Message from Ann')).toBeTruthy();
    await wait(UNDO_MS * 2);
    expect(api.to('/deleteMessage')).toEqual([]);
  });

  it('closing the toast sends the deletion at once', async () => {
    const { api } = await setup();
    const { onClose } = deleteIt();
    act(() => onClose());
    await wait(0);
    expect(api.to('/deleteMessage').map((request) => request.body)).toEqual([{ messageId }]);
  });

  it('shows the message again, with the error toast, when the deletion is refused', async () => {
    const error = vi.spyOn(notify, 'error');
    const api = fakeApi({
      '/getMessages': () =>
        ok({
          messages: [
            {
              message_id: messageId,
              seq: '1',
              message: 'hello there',
              time: '2024-05-01T10:00:00.000Z',
              name: 'Ann',
              videoTime: null,
              actionId: null,
            },
          ],
        }),
      '/deleteMessage': () => refused(503, 'studies is down'),
    });
    renderWithApi(<MessagesTab sessionId={sessionId} />);
    await wait(0);
    deleteIt();
    await wait(UNDO_MS);
    await wait(0);
    expect(api.to('/deleteMessage')).toHaveLength(1);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorDeletingMessage);
    expect(screen.getByLabelText('Message from Ann')).toBeTruthy();
  });

  it("moves the focus to the next message's delete icon once the row is hidden", async () => {
    const second = '1b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';
    const record = (id: string, seq: string, name: string) => ({
      message_id: id,
      seq,
      message: 'hello there',
      time: '2024-05-01T10:00:00.000Z',
      name,
      videoTime: null,
      actionId: null,
    });
    fakeApi({
      '/getMessages': () => ok({ messages: [record(messageId, '1', 'Ann'), record(second, '2', 'Bo')] }),
      '/deleteMessage': () => ok({ message: 'Message deleted.' }),
    });
    renderWithApi(<MessagesTab sessionId={sessionId} />);
    await wait(0);
    const undoable = vi.spyOn(undoableToast, 'show');
    const [first, next] = screen.getAllByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage });
    fireEvent.click(first!);
    const dialog = screen.getByRole('alertdialog', { name: RECORD_PANEL_TEXTS.deleteMessageHeading });
    fireEvent.click(within(dialog).getByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage }));
    await wait(0);
    expect(screen.getAllByRole('button', { name: RECORD_PANEL_TEXTS.deleteMessage })).toEqual([next]);
    expect(document.activeElement).toBe(next);
    act(() => undoable.mock.calls[0]![1].onUndo());
  });
});
