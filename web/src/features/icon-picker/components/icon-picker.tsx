import { ICON_STYLES, type IconStyle } from '@uis/proto/browser';
import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { useIconFonts } from '../../../components/ui/icon-fonts';
import { useDismiss } from '../../../components/ui/popover';
import { ShowMoreButton, useShownItems } from '../../../components/ui/show-more';
import { useIconNames } from '../hooks/use-icon-names';
import { filterIconNames } from '../lib/filter-icons';
import { reactionIcons } from '../lib/reaction-icons';
import '../icon-picker.css';
import {
  EDITOR_TEXTS,
  REACTION_ICON_TEXTS,
  iconCountText,
  noIconMatchText,
  showAllIconsText,
} from '../../../i18n/en/editor';

/** Icons rendered at a time: the full list is about 2,100. */
export const ICON_PAGE_SIZE = 120;

export interface IconPick {
  icon?: string;
  type?: IconStyle;
}

interface IconPickerProps {
  icon: string;
  iconStyle: IconStyle;
  onPick: (pick: IconPick) => void;
  onClose: () => void;
}

/**
 * The action icon picker (spec sections 2 and 5): a search box that filters the Material icon
 * names by lowercase substring 1 s after the last keystroke, the five styles, and the icons. It
 * opens on icons that suit reactions (REACTION_ICONS); a search, or 'Show all', reaches the rest.
 * Picking a style changes the action's style; picking an icon sets it and closes the picker.
 */
export function IconPicker({ icon, iconStyle, onPick, onClose }: IconPickerProps) {
  const names = useIconNames();
  const [search, setSearch] = useState('');
  const [query] = useDebounce(search, DEBOUNCE_MS);
  const [showingAll, setShowingAll] = useState(false);
  const suggesting = query.trim() === '' && !showingAll;
  const matches = useMemo(
    () => (suggesting ? reactionIcons(names ?? []) : filterIconNames(names ?? [], query)),
    [names, query, suggesting],
  );
  const shown = useShownItems(matches, ICON_PAGE_SIZE, `${suggesting}:${query}`);
  useIconFonts(ICON_STYLES);
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(panel, onClose);
  const id = useId();
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => searchBox.current?.focus(), []);

  return (
    <div
      className="icon-picker-backdrop"
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className="icon-picker"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
      >
        <div className="icon-picker-header">
          <h2 id={`${id}-title`}>{EDITOR_TEXTS.chooseIcon}</h2>
          <IconButton icon="close" label={EDITOR_TEXTS.closeIconPicker} onClick={onClose} />
        </div>
        <input
          ref={searchBox}
          type="search"
          className="text-input"
          aria-label={EDITOR_TEXTS.searchIcons}
          placeholder={EDITOR_TEXTS.searchIcons}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <div className="icon-picker-styles" role="radiogroup" aria-label={EDITOR_TEXTS.iconStyle}>
          {ICON_STYLES.map((style) => (
            <label key={style} className={`icon-picker-style${style === iconStyle ? ' selected' : ''}`}>
              <input
                type="radio"
                className="visually-hidden"
                name={`${id}-style`}
                value={style}
                checked={style === iconStyle}
                onChange={() => onPick({ type: style })}
              />
              <Icon name={icon} iconStyle={style} size={20} />
              <span>{style}</span>
            </label>
          ))}
        </div>
        <div className="icon-picker-grid-wrap">
          {names === null ? (
            <p className="icon-picker-note">{EDITOR_TEXTS.loadingIcons}</p>
          ) : matches.length === 0 ? (
            <p className="icon-picker-note">{noIconMatchText(query)}</p>
          ) : (
            <>
              <p className="icon-picker-note" aria-live="polite">
                {suggesting ? REACTION_ICON_TEXTS.suggested : iconCountText(matches.length)}
              </p>
              <div className="icon-picker-grid">
                {shown.visible.map((name) => (
                  <button
                    key={name}
                    type="button"
                    className={`icon-picker-icon${name === icon ? ' selected' : ''}`}
                    aria-label={name}
                    aria-pressed={name === icon}
                    title={name}
                    onClick={() => {
                      onPick({ icon: name });
                      onClose();
                    }}
                  >
                    <Icon name={name} iconStyle={iconStyle} />
                  </button>
                ))}
              </div>
              <ShowMoreButton hidden={shown.hidden} onClick={shown.showMore} />
              {suggesting ? (
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => {
                    setShowingAll(true);
                    // The button goes: the search box is where the keyboard carries on.
                    searchBox.current?.focus();
                  }}
                >
                  {showAllIconsText(names.length)}
                </button>
              ) : null}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
