import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { APP_REQUEST_HEADER, TOKEN_COOKIES } from '@uis/proto';

/** Where a request's access token came from: the cookie is sent by the browser on its own. */
export type TokenSource = 'bearer' | 'cookie' | 'query';

export interface PresentedToken {
  token: string;
  source: TokenSource;
}

/** Why a change that came with only the token cookie was refused (the web app always sends the header). */
export const COOKIE_WITHOUT_APP_HEADER_TEXT = `Sign in first: a change signed in by the token cookie needs the ${APP_REQUEST_HEADER.name}: ${APP_REQUEST_HEADER.value} header (the web app sends it); other clients send the bearer header.`;

const bearerOf = (headers: IncomingHttpHeaders): string | undefined => {
  const header = headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
};

const cookieOf = (headers: IncomingHttpHeaders, name: string): string | undefined =>
  headers.cookie ? parseCookies(headers.cookie)[name] || undefined : undefined;

/**
 * The access token a request's headers carry: bearer header first, then the HttpOnly cookie auth
 * sets (proto's TOKEN_COOKIES; a <video> element or a browser's WebSocket can send nothing else).
 * Shared by the realtime handshake and the PeerJS registration gate, which check the Origin too.
 */
export function accessTokenOfHeaders(headers: IncomingHttpHeaders): string | undefined {
  if (headers.authorization?.startsWith('Bearer ')) return bearerOf(headers) || undefined;
  return cookieOf(headers, TOKEN_COOKIES.accessToken);
}

/** Reading requests: a cookie alone authenticates them. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Whether the request carries the web app's header (proto's APP_REQUEST_HEADER). */
export const sentByWebApp = (headers: IncomingHttpHeaders): boolean =>
  headers[APP_REQUEST_HEADER.name.toLowerCase()] === APP_REQUEST_HEADER.value;

/**
 * Whether the browser's cookies may authenticate this request. A browser attaches them to any
 * request another site makes it send (a form POST, a fetch in no-cors mode), so a change counts
 * them only with the web app's header: a form cannot set a header, and a cross-site fetch with one
 * needs a CORS preflight that ALLOWED_ORIGINS refuses. Any body type alike (JSON, an upload's
 * multipart form): this is decided before the body is read.
 */
export const cookiesMayAuthenticate = (req: Request): boolean =>
  SAFE_METHODS.has(req.method) || sentByWebApp(req.headers);

/** A token cookie of the request (auth reads the refresh token's), when cookies may authenticate it. */
export const tokenCookieOf = (req: Request, name: string): string | undefined =>
  cookiesMayAuthenticate(req) ? cookieOf(req.headers, name) : undefined;

/** A change that came with the token cookie but not the web app's header: refused, and said why. */
export const cookieWithoutAppHeader = (req: Request): boolean =>
  !cookiesMayAuthenticate(req) && cookieOf(req.headers, TOKEN_COOKIES.accessToken) !== undefined;

/**
 * The caller's access token: bearer header first, then the cookie (a change only with the web
 * app's header, see cookiesMayAuthenticate), then (if the route allows) the query. A bearer header,
 * even an empty one, is the caller's answer: nothing else is tried.
 */
export function accessTokenOf(req: Request, allowQuery: boolean): PresentedToken | undefined {
  if (req.headers.authorization?.startsWith('Bearer ')) {
    const token = bearerOf(req.headers);
    return token ? { token, source: 'bearer' } : undefined;
  }
  const cookie = tokenCookieOf(req, TOKEN_COOKIES.accessToken);
  if (cookie) return { token: cookie, source: 'cookie' };
  const query = req.query?.accessToken;
  return allowQuery && typeof query === 'string' && query ? { token: query, source: 'query' } : undefined;
}
