import { RETURN_PATH_KEY, safeReturnPath } from '../../signed-in/return-path';

/**
 * The return path remembered before a provider's sign-in (auth/return-path.ts), read where the
 * provider sends the browser back: the callback, a lazy screen, so none of this weighs on login.
 */

/** The path remembered in this browser within RETURN_PATH_KEEP_MS, if it is still safe. */
export function rememberedReturnPath(): string | null {
  try {
    const stored = JSON.parse(localStorage.getItem(RETURN_PATH_KEY) ?? 'null') as {
      path?: unknown;
      until?: unknown;
    } | null;
    return typeof stored?.until === 'number' && stored.until > Date.now()
      ? safeReturnPath(stored.path)
      : null;
  } catch {
    return null;
  }
}

export function forgetReturnPath(): void {
  try {
    localStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    /* storage off: nothing was remembered */
  }
}
