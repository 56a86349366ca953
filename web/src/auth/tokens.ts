import Cookies from 'js-cookie';
import { REFRESH_TOKEN_COOKIE_DAYS, TOKEN_COOKIES } from '@uis/proto/browser';

/**
 * The access and refresh tokens live in cookies (spec section 4): the refresh token for 3 days, the
 * access token for the browser session. SameSite=Lax keeps them off cross-site requests; Secure on https.
 */
const attributes = (): Cookies.CookieAttributes => ({
  path: '/',
  sameSite: 'lax',
  secure: window.location.protocol === 'https:',
});

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export const tokens = {
  access: (): string | undefined => Cookies.get(TOKEN_COOKIES.accessToken),
  refresh: (): string | undefined => Cookies.get(TOKEN_COOKIES.refreshToken),
  setAccess(token: string): void {
    Cookies.set(TOKEN_COOKIES.accessToken, token, attributes());
  },
  setPair({ accessToken, refreshToken }: TokenPair): void {
    Cookies.set(TOKEN_COOKIES.accessToken, accessToken, attributes());
    Cookies.set(TOKEN_COOKIES.refreshToken, refreshToken, {
      ...attributes(),
      expires: REFRESH_TOKEN_COOKIE_DAYS,
    });
  },
  removeRefresh(): void {
    Cookies.remove(TOKEN_COOKIES.refreshToken, { path: '/' });
  },
  clear(): void {
    Cookies.remove(TOKEN_COOKIES.accessToken, { path: '/' });
    Cookies.remove(TOKEN_COOKIES.refreshToken, { path: '/' });
  },
};
