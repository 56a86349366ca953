import type { IconStyle } from '@uis/proto';
import { useEffect } from 'react';

/**
 * Only the filled Material font ships with the first page (main.tsx). The other four styles are
 * fetched when something shows an icon in them (the icon picker, an action in another style), each
 * its own small CSS chunk and font file from the bundled material-icons package: nothing from
 * outside hosts.
 */
const LOADERS: Record<Exclude<IconStyle, 'filled'>, () => Promise<unknown>> = {
  outlined: () => import('material-icons/iconfont/outlined.css'),
  round: () => import('material-icons/iconfont/round.css'),
  sharp: () => import('material-icons/iconfont/sharp.css'),
  'two-tone': () => import('material-icons/iconfont/two-tone.css'),
};

const loading = new Map<IconStyle, Promise<unknown>>();

/** Loads a style's font once; resolves when its CSS is in (the font then loads with its first glyph). */
function loadIconFont(style: IconStyle): Promise<unknown> {
  if (style === 'filled') return Promise.resolve();
  let pending = loading.get(style);
  if (!pending) {
    // A failed load (offline) may be retried by the next icon that needs the style.
    pending = LOADERS[style]().catch((error: unknown) => {
      loading.delete(style);
      throw error;
    });
    loading.set(style, pending);
  }
  return pending;
}

/** Makes sure the fonts of these styles are loading (call it where icons of any style are shown). */
export function useIconFonts(styles: readonly IconStyle[]): void {
  const key = [...new Set(styles)].sort().join(' ');
  useEffect(() => {
    for (const style of key.split(' ') as IconStyle[]) if (style) loadIconFont(style).catch(() => undefined);
  }, [key]);
}
