import { RETURN_PATH_MAX_CHARS, RETURN_PATH_PATTERN } from '@uis/proto/browser';

/**
 * Where to go after signing in, when the person came for a particular page (a join link, an
 * invitation's session, a guarded page opened signed out). It travels as history state to the login
 * and sign-up screens (the address stays /), as `next` in a magic link, and, for a provider's sign-in
 * that leaves the app, in localStorage for RETURN_PATH_KEEP_MS (read back by the callback:
 * features/sign-in/remembered-return-path.ts, outside the login route's bundle). Only a path of this app
 * is ever followed, never a host.
 */

/**
 * The value as a return path, if it is a safe path of this app. Not the magic link's landing itself:
 * going back there would spend its link again.
 */
export const safeReturnPath = (value: unknown): string | null =>
  typeof value === 'string' &&
  value.length <= RETURN_PATH_MAX_CHARS &&
  RETURN_PATH_PATTERN.test(value) &&
  !/^\/authcallback/i.test(value)
    ? value
    : null;

/** History state of the login and sign-up screens that carries a return path. */
export const returnPathState = (path: string | null): { returnPath: string } | null =>
  path ? { returnPath: path } : null;

/** The return path in a location's state (history state is untyped), if it holds a safe one. */
export const returnPathOf = (state: unknown): string | null =>
  safeReturnPath((state as { returnPath?: unknown } | null)?.returnPath);

export const RETURN_PATH_KEY = 'uis.returnPath';
/** Long enough to sign in at a provider (and sign up after), short enough not to surprise a later visit. */
export const RETURN_PATH_KEEP_MS = 60 * 60_000;

// Storage can be off or full (private modes, policies): then a provider's sign-in lands on home.
export function rememberReturnPath(path: string): void {
  try {
    localStorage.setItem(RETURN_PATH_KEY, JSON.stringify({ path, until: Date.now() + RETURN_PATH_KEEP_MS }));
  } catch {
    /* see above */
  }
}
