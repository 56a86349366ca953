import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadIconNames } from '../hooks/use-icon-names';
import { filterIconNames } from '../lib/filter-icons';
import { REACTION_ICONS } from '../lib/reaction-icons';
import { ICON_PAGE_SIZE, IconPicker } from './icon-picker';
import { REACTION_ICON_TEXTS, showAllIconsText } from '../../../i18n/en/editor';

let names: readonly string[] = [];
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const iconButtons = () => within(screen.getByRole('dialog')).getAllByRole('button', { pressed: false });
const note = () => screen.getByText(/^\d+ icons$/).textContent;
/** The icons shown, by name (the style previews are radios, not buttons). */
const iconNames = () =>
  within(screen.getByRole('dialog'))
    .getAllByRole('button')
    .map((button) => button.getAttribute('title'))
    .filter((title): title is string => title !== null);

describe('IconPicker', () => {
  beforeAll(async () => {
    names = await loadIconNames();
  });
  beforeEach(() => vi.useFakeTimers());

  it('opens on icons for reactions (thumbs, hearts, faces, hands), with the search box focused', () => {
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={vi.fn()} onClose={vi.fn()} />);
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search icons' }));
    expect(screen.getByText(REACTION_ICON_TEXTS.suggested).getAttribute('aria-live')).toBe('polite');
    const shown = iconNames();
    expect(shown).toEqual([...REACTION_ICONS]);
    for (const name of ['thumb_up', 'favorite', 'sentiment_very_satisfied', 'waving_hand', 'celebration'])
      expect(shown).toContain(name);
    expect(shown).not.toContain('123');
  });

  it('offers the whole Material set on demand, a page at a time', () => {
    expect(names.length).toBeGreaterThan(2000);
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={vi.fn()} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: showAllIconsText(names.length) }));
    expect(note()).toBe(`${names.length} icons`);
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search icons' }));
    // The page of icons plus the selected one, not the thousands.
    expect(iconButtons().length).toBeLessThanOrEqual(ICON_PAGE_SIZE + 1);
    fireEvent.click(screen.getByRole('button', { name: /Show more/ }));
    expect(iconButtons().length).toBeGreaterThan(ICON_PAGE_SIZE + 1);
  });

  it('searches every icon, by lowercase substring, 1000 ms after the last keystroke', async () => {
    render(<IconPicker icon="thumb_up" iconStyle="filled" onPick={vi.fn()} onClose={vi.fn()} />);
    const search = screen.getByLabelText('Search icons');
    fireEvent.change(search, { target: { value: 'ALA' } });
    await wait(DEBOUNCE_MS);
    // Not one of the reaction icons: search reaches the whole set.
    expect(iconNames()).toContain('alarm');
    fireEvent.change(search, { target: { value: 'THU' } });
    await wait(600);
    fireEvent.change(search, { target: { value: 'THUMB' } });
    await wait(DEBOUNCE_MS - 1);
    expect(note()).toBe(`${filterIconNames(names, 'ala').length} icons`);
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
    fireEvent.click(screen.getByRole('button', { name: 'favorite' }));
    expect(onPick).toHaveBeenLastCalledWith({ icon: 'favorite' });
    expect(onClose).toHaveBeenCalled();
  });
});
