import { UI_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import type { Prompt } from '@uis/proto';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { PromptsList } from './prompts-list';
import { SAVE_STATUS_TEXTS, notSavedText } from '../../../i18n/en/editor';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const promptId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const TIME_MESSAGE = 'time: must be a time as hh:mm:ss, with minutes and seconds from 00 to 59';

function setup() {
  const prompts: Prompt[] = [
    { prompt_id: promptId, time: 0, duration: 0, prompt: 'First' },
    { prompt_id: '1b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10', time: 1, duration: 5, prompt: 'Second' },
  ];
  const api = fakeApi({
    '/getPrompts': () => ok({ prompts }),
    '/addPrompt': () => ok({ prompt: { prompt_id: promptId, time: 2, duration: 0, prompt: '' } }),
    '/editPrompt': (request) =>
      (request.body as { time?: string }).time === '00:99:00'
        ? refused(400, TIME_MESSAGE)
        : ok({ message: 'ok' }),
  });
  renderWithApi(<PromptsList sessionId={sessionId} />);
  return api;
}

describe('prompts', () => {
  beforeEach(() => vi.useFakeTimers());

  it('adds a prompt at the first free second', async () => {
    const api = setup();
    await wait(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add prompt' }));
    await wait(0);
    expect(api.to('/addPrompt').map((request) => request.body)).toEqual([{ sessionId, time: '00:00:02' }]);
  });

  it("shows the server's message for a bad time next to the field, with the toast", async () => {
    const error = vi.spyOn(notify, 'error');
    const api = setup();
    await wait(0);
    const [first] = screen.getAllByRole('listitem');
    fireEvent.change(within(first!).getByLabelText('Prompt time (hh:mm:ss)'), {
      target: { value: '00:99:00' },
    });
    await wait(DEBOUNCE_MS);
    expect(within(first!).getByText(notSavedText(TIME_MESSAGE)).getAttribute('aria-live')).toBe('polite');
    expect(within(first!).getByLabelText('Prompt time (hh:mm:ss)').getAttribute('aria-invalid')).toBe('true');
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorEditingPrompt);

    fireEvent.change(within(first!).getByLabelText('Prompt time (hh:mm:ss)'), {
      target: { value: '00:00:09' },
    });
    fireEvent.change(within(first!).getByLabelText('Prompt duration (seconds)'), { target: { value: '' } });
    fireEvent.change(within(first!).getByLabelText('Prompt text'), { target: { value: 'Why?' } });
    await wait(DEBOUNCE_MS);
    expect(api.to('/editPrompt').map((request) => request.body)).toEqual([
      { promptId, time: '00:99:00' },
      { promptId, time: '00:00:09', prompt: 'Why?' },
    ]);
    expect(within(first!).getByText(SAVE_STATUS_TEXTS.saved)).toBeTruthy();
    expect(within(first!).queryByText(notSavedText(TIME_MESSAGE))).toBeNull();
    expect(within(first!).getByLabelText('Prompt time (hh:mm:ss)').getAttribute('aria-invalid')).toBeNull();
  });
});
