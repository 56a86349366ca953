import { UI_TEXTS, VALIDATION_TEXTS } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import type { Action } from '@uis/proto';
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { ActionsRow } from './actions-row';
import { EDITOR_TEXTS, notSavedText } from '../../../i18n/en/editor';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const actionId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('actions row', () => {
  beforeEach(() => vi.useFakeTimers());

  it('adds, renames after the pause, recolours and deletes, toasting the spec texts', async () => {
    const error = vi.spyOn(notify, 'error');
    const actions: Action[] = [];
    const api = fakeApi({
      '/getActions': () => ok({ actions }),
      '/addAction': () => {
        const action: Action = {
          action_id: actionId,
          name: 'New action',
          color: '#000000',
          icon: 'thumb_up',
          type: 'filled',
        };
        actions.push(action);
        return ok({ action });
      },
      '/editAction': () => refused(400, 'name: must be at most 200 characters'),
      '/deleteAction': () => refused(503, 'Session data is unavailable.'),
    });
    renderWithApi(<ActionsRow sessionId={sessionId} />);
    await wait(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    await wait(0);
    expect(api.to('/addAction').map((request) => request.body)).toEqual([{ sessionId }]);

    const name = screen.getByLabelText('Action name');
    fireEvent.change(name, { target: { value: '' } });
    expect(screen.getByRole('alert').textContent).toBe(VALIDATION_TEXTS.empty);
    fireEvent.change(name, { target: { value: 'Wow' } });
    fireEvent.click(screen.getByRole('button', { name: 'Colour #000000' }));
    fireEvent.click(screen.getByRole('button', { name: 'Transparent' }));
    await wait(DEBOUNCE_MS - 1);
    expect(api.to('/editAction')).toEqual([]);
    await wait(1);
    expect(api.to('/editAction').map((request) => request.body)).toEqual([
      { actionId, name: 'Wow', color: 'transparent' },
    ]);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorEditingAction);
    expect(screen.getByText(notSavedText('name: must be at most 200 characters'))).toBeTruthy();
    expect(screen.getByLabelText('Action name').getAttribute('aria-invalid')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: EDITOR_TEXTS.deleteAction }));
    await wait(0);
    expect(api.to('/deleteAction').map((request) => request.body)).toEqual([{ actionId }]);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorDeletingAction);
  });
});
