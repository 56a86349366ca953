import { SIGNED_IN_COOKIE, TOKEN_COOKIES } from '@uis/proto/browser';
import { appConfig } from '../config/app-config';

/**
 * The access and refresh tokens live in cookies auth sets (spec section 4: the refresh token for 3
 * days, the access token for the browser session), HttpOnly: no script here can read them, nor can
 * one injected into the page. What this app reads is SIGNED_IN_COOKIE, also auth's, which holds only
 * when the access token expires (epoch seconds): whether this browser is signed in, and when to
 * renew. Nothing here writes a token.
 */

const cookies = (): Map<string, string> =>
  new Map(
    document.cookie
      .split(';')
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );

/** An API on another host keeps its cookies there: this page cannot see whether it is signed in. */
const apiElsewhere = (): boolean => {
  const { apiUrl } = appConfig();
  return Boolean(apiUrl) && new URL(apiUrl, window.location.href).hostname !== window.location.hostname;
};

const expire = (name: string) => {
  // eslint-disable-next-line i18next/no-literal-string -- a cookie's attributes, not a text
  document.cookie = `${name}=; Path=/; Max-Age=0`;
};

export const tokens = {
  /**
   * Whether this browser may be signed in, so asking the server is worth it: the marker is here;
   * or token cookies a script can see (an app before this one set them, or a test: the server
   * replaces them with HttpOnly ones at the next refresh); or the API is on another host.
   */
  present(): boolean {
    const jar = cookies();
    return (
      jar.has(SIGNED_IN_COOKIE) ||
      jar.has(TOKEN_COOKIES.accessToken) ||
      jar.has(TOKEN_COOKIES.refreshToken) ||
      apiElsewhere()
    );
  },
  /** When the access token expires (epoch ms), as the marker says; null when there is none. */
  accessExpiresAt(): number | null {
    const seconds = Number(cookies().get(SIGNED_IN_COOKIE));
    return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
  },
  /** Whether the access token expires within `ms` (an unknown expiry is left to the server to judge). */
  expiresWithin(ms: number, now = Date.now()): boolean {
    const expiresAt = tokens.accessExpiresAt();
    return expiresAt !== null && expiresAt - now < ms;
  },
  /**
   * Forgets the sign-in on this side at once: the marker, and token cookies a script can see. The
   * HttpOnly ones only the server clears (logout, a refused refresh).
   */
  clear(): void {
    for (const name of [SIGNED_IN_COOKIE, TOKEN_COOKIES.accessToken, TOKEN_COOKIES.refreshToken])
      expire(name);
  },
};
