import { DEFAULT_ACTION_COLOR, TRANSPARENT } from '@uis/proto/browser';

/**
 * An action's colour (spec section 3): a hex colour or 'transparent', black by default. The same
 * forms the server accepts (#rgb, #rrggbb, #rrggbbaa), lower-cased.
 */
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/;

/** The colour to store, or null when `text` is neither hex nor 'transparent'. */
export function normalizeActionColor(text: string): string | null {
  const color = text.trim().toLowerCase();
  return color === TRANSPARENT || HEX.test(color) ? color : null;
}

/** The #rrggbb the hex picker shows: #rgb expanded, an alpha dropped, 'transparent' or nonsense as black. */
export function pickerHex(color: string): string {
  const normalized = normalizeActionColor(color);
  if (normalized === null || normalized === TRANSPARENT) return DEFAULT_ACTION_COLOR;
  if (normalized.length === 4) {
    const [, r = '', g = '', b = ''] = normalized;
    return `#${r}${r}${g}${g}${b}${b}`;
  }
  return normalized.slice(0, 7);
}

export const isTransparent = (color: string): boolean => normalizeActionColor(color) === TRANSPARENT;
