import { requestOverTls, sentByWebApp, tokenCookieOf, verifyAccessToken } from '@uis/kit';
import { SIGNED_IN_COOKIE, TOKEN_COOKIES, type TokenPair } from '@uis/proto';
import { serialize, type SerializeOptions } from 'cookie';
import type { Request, Response } from 'express';
import type { AuthConfig } from '../auth.config';

/**
 * The browser's side of a login: auth sets the tokens as cookies no script can read (HttpOnly), so
 * an injected script cannot carry them off, and clears them on logout. Beside them, SIGNED_IN_COOKIE
 * tells the web app, which cannot see the tokens, that it is signed in and when the access token
 * expires (to renew it before). Path=/ is the cookies' path when the web app set them itself, so
 * these replace the readable ones of a browser signed in before.
 */
export class TokenCookies {
  private readonly refreshMaxAgeSeconds: number;

  constructor(
    private readonly config: Pick<AuthConfig, 'PUBLIC_URL' | 'REFRESH_TOKEN_TTL_DAYS'>,
    private readonly jwtSecret: string,
  ) {
    // As long as the refresh token lives (proto's REFRESH_TOKEN_COOKIE_DAYS unless configured).
    this.refreshMaxAgeSeconds = Math.round(config.REFRESH_TOKEN_TTL_DAYS * 86_400);
  }

  /**
   * Sets `pair`'s cookies and answers the body to send: the pair, except to the web app (its
   * header), whose refresh token stays in its cookie (the body's is empty). The access token is in
   * every body: a live connection renews with it (renewToken), as it cannot be handed a cookie.
   */
  handOut(req: Request, res: Response, pair: TokenPair): TokenPair {
    const attributes = this.attributes(req);
    const expiresAt = verifyAccessToken(this.jwtSecret, pair.accessToken)?.expiresAt ?? Date.now();
    const lasting = { ...attributes, maxAge: this.refreshMaxAgeSeconds };
    res.append('Set-Cookie', [
      // A session cookie, as the spec keeps the access token for the browser session.
      serialize(TOKEN_COOKIES.accessToken, pair.accessToken, { ...attributes, httpOnly: true }),
      serialize(TOKEN_COOKIES.refreshToken, pair.refreshToken, { ...lasting, httpOnly: true }),
      serialize(SIGNED_IN_COOKIE, String(Math.floor(expiresAt / 1000)), lasting),
    ]);
    return sentByWebApp(req.headers) ? { accessToken: pair.accessToken, refreshToken: '' } : pair;
  }

  /** Logout, or a refresh cookie refused: the browser forgets every cookie of the login. */
  clear(req: Request, res: Response): void {
    const expired = { ...this.attributes(req), maxAge: 0 };
    res.append(
      'Set-Cookie',
      [TOKEN_COOKIES.accessToken, TOKEN_COOKIES.refreshToken, SIGNED_IN_COOKIE].map((name) =>
        serialize(name, '', name === SIGNED_IN_COOKIE ? expired : { ...expired, httpOnly: true }),
      ),
    );
  }

  /** The refresh token of the cookie, only with the web app's header (kit's rule for cookies on a change). */
  refreshTokenOf(req: Request): string | undefined {
    return tokenCookieOf(req, TOKEN_COOKIES.refreshToken);
  }

  private attributes(req: Request): SerializeOptions {
    return { path: '/', sameSite: 'lax', secure: requestOverTls(req, this.config.PUBLIC_URL) };
  }
}
