import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadIconNames } from '../hooks/use-icon-names';
import { filterIconNames } from '../lib/filter-icons';
import { ICON_PAGE_SIZE, IconPicker } from './icon-picker';

let names: readonly string[] = [];
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const iconButtons = () => within(screen.getByRole('dialog')).getAllByRole('button', { pressed: false });
const note = () => screen.getByText(/^\d+ icons$/).textContent;

describe('IconPicker', () => {
  beforeAll(async () => {
    names = await loadIconNames();
  });
  beforeEach(() => vi.useFakeTimers());

  it('offers the whole Material set, a page at a time', () => {
    expect(names.length).toBeGreaterThan(2000);
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={vi.fn()} onClose={vi.fn()} />);
    expect(note()).toBe(`${names.length} icons`);
    // The page of icons plus the selected one, not the thousands.
    expect(iconButtons().length).toBeLessThanOrEqual(ICON_PAGE_SIZE + 1);
    fireEvent.click(screen.getByRole('button', { name: /Show more/ }));
    expect(iconButtons().length).toBeGreaterThan(ICON_PAGE_SIZE + 1);
  });

  it('filters by lowercase substring 1000 ms after the last keystroke', async () => {
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={vi.fn()} onClose={vi.fn()} />);
    const search = screen.getByLabelText('Search icons');
    fireEvent.change(search, { target: { value: 'THU' } });
    await wait(600);
    fireEvent.change(search, { target: { value: 'THUMB' } });
    await wait(DEBOUNCE_MS - 1);
    expect(note()).toBe(`${names.length} icons`);
    await wait(1);
    const thumbs = filterIconNames(names, 'thumb');
    expect(thumbs.length).toBeGreaterThan(3);
    expect(note()).toBe(`${thumbs.length} icons`);
    const shown = within(screen.getByRole('dialog'))
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'))
      .filter((label) => label && names.includes(label));
    expect(shown).toEqual(thumbs);
  });

  it('picks a style, and an icon (which closes the picker)', () => {
    const onPick = vi.fn();
    const onClose = vi.fn();
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={onPick} onClose={onClose} />);
    const styles = within(screen.getByRole('radiogroup', { name: 'Icon style' })).getAllByRole('radio');
    expect(styles.map((radio) => (radio as HTMLInputElement).value)).toEqual([
      'filled',
      'outlined',
      'round',
      'sharp',
      'two-tone',
    ]);
    fireEvent.click(screen.getByRole('radio', { name: 'two-tone' }));
    expect(onPick).toHaveBeenLastCalledWith({ type: 'two-tone' });
    fireEvent.click(screen.getByRole('button', { name: '123' }));
    expect(onPick).toHaveBeenLastCalledWith({ icon: '123' });
    expect(onClose).toHaveBeenCalled();
  });
});
