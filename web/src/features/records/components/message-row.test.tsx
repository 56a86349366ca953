import { UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused, type ApiAnswer, type ApiRequest } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { MessagesTab } from './messages-tab';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const messageId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

async function setup(
  editMessage: (request: ApiRequest) => ApiAnswer = () => ok({ message: 'Message updated.' }),
) {
  let text = 'hello there';
  const api = fakeApi({
    '/getMessages': () =>
      ok({
        messages: [
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
