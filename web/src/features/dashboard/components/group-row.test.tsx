import type { Group } from '@uis/proto';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupRow } from './group-row';
import { DASHBOARD_TEXTS } from '../../../i18n/en/dashboard';

const group: Group = { group_id: '00000000-0000-4000-8000-000000000001', title: 'Pilot' };

function renderRow() {
  const onRename = vi.fn<(title: string) => void>();
  const onSelect = vi.fn();
  render(
    <div>
      <button type="button">elsewhere</button>
      <ul>
        <GroupRow
          group={group}
          title={group.title}
          selected
          deleting={false}
          onSelect={onSelect}
          onRename={onRename}
          onDelete={() => undefined}
        />
      </ul>
    </div>,
  );
  return { onRename, onSelect };
}

const titleInput = () => screen.queryByRole<HTMLInputElement>('textbox', { name: 'Group title' });
const type = (text: string) => fireEvent.change(titleInput()!, { target: { value: text } });

describe('GroupRow title editing', () => {
  beforeEach(() => vi.useFakeTimers());

  it('is read-only until the edit icon is clicked', () => {
    const { onSelect } = renderRow();
    expect(titleInput()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pilot' }));
    expect(onSelect).toHaveBeenCalledOnce();
    expect(titleInput()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    expect(titleInput()?.value).toBe('Pilot');
  });

  it('saves 1000 ms after the last keystroke, once, then ends edit mode', () => {
    const { onRename } = renderRow();
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    type('Pil');
    act(() => {
      vi.advanceTimersByTime(600);
    });
    type('Pilot study');
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(onRename).not.toHaveBeenCalled();
    expect(titleInput()).not.toBeNull();

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onRename).toHaveBeenCalledExactlyOnceWith('Pilot study');
    expect(titleInput()).toBeNull();
  });

  it('ends edit mode on a click outside, saving what was typed without waiting', () => {
    const { onRename } = renderRow();
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    type('Main study');
    // A press inside the row (its own input) keeps editing.
    fireEvent.pointerDown(titleInput()!);
    expect(titleInput()).not.toBeNull();

    fireEvent.pointerDown(screen.getByRole('button', { name: 'elsewhere' }));
    expect(titleInput()).toBeNull();
    expect(onRename).toHaveBeenCalledExactlyOnceWith('Main study');
    // The pending debounced save was dropped, not sent a second time.
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(onRename).toHaveBeenCalledOnce();
  });

  it('ends edit mode on a click outside without a call when nothing changed', () => {
    const { onRename } = renderRow();
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    fireEvent.pointerDown(document.body);
    expect(titleInput()).toBeNull();
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(onRename).not.toHaveBeenCalled();
  });

  it('never saves a blank title: it says the field must not be empty and keeps the old one', () => {
    const { onRename } = renderRow();
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    type('   ');
    expect(screen.getByRole('alert').textContent).toBe('This field must not be empty');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(titleInput()).not.toBeNull();

    fireEvent.pointerDown(document.body);
    expect(titleInput()).toBeNull();
    expect(onRename).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pilot' })).toBeTruthy();
  });

  it('Escape drops the draft; Enter saves at once', () => {
    const { onRename } = renderRow();
    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    type('Dropped');
    fireEvent.keyDown(titleInput()!, { key: 'Escape' });
    expect(titleInput()).toBeNull();
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(onRename).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: DASHBOARD_TEXTS.editGroupTitle }));
    type('Kept');
    fireEvent.keyDown(titleInput()!, { key: 'Enter' });
    expect(onRename).toHaveBeenCalledExactlyOnceWith('Kept');
    expect(titleInput()).toBeNull();
  });
});
