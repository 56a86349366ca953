import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { TOKEN_COOKIES } from '@uis/proto';

/** Where a request's access token came from: the cookie is sent by the browser on its own. */
export type TokenSource = 'bearer' | 'cookie' | 'query';

export interface PresentedToken {
  token: string;
  source: TokenSource;
}

const bearerOf = (headers: IncomingHttpHeaders): string | undefined => {
  const header = headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
};

const cookieOf = (headers: IncomingHttpHeaders): string | undefined =>
  headers.cookie ? parseCookies(headers.cookie)[TOKEN_COOKIES.accessToken] || undefined : undefined;

/**
 * The access token a request's headers carry: bearer header first, then the cookie the web app keeps
 * it in (proto's TOKEN_COOKIES; a <video> element or a browser's WebSocket can send nothing else).
 * Shared by the realtime handshake and the PeerJS registration gate, which check the Origin too.
 */
export function accessTokenOfHeaders(headers: IncomingHttpHeaders): string | undefined {
  if (headers.authorization?.startsWith('Bearer ')) return bearerOf(headers) || undefined;
  return cookieOf(headers);
}

/** Reading requests: the only ones a cookie may authenticate. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The caller's access token: bearer header first, then the cookie, then (if the route allows) the
 * query. A bearer header, even an empty one, is the caller's answer: nothing else is tried.
 *
 * The cookie counts for reading requests only. A browser attaches it to any request another site
 * makes it send (a form POST, a fetch in no-cors mode), so a state change authenticated by the cookie
 * alone could be forged cross-site; the web app sends every change with the bearer header, and only
 * a <video> element (a GET) needs the cookie.
 */
export function accessTokenOf(req: Request, allowQuery: boolean): PresentedToken | undefined {
  if (req.headers.authorization?.startsWith('Bearer ')) {
    const token = bearerOf(req.headers);
    return token ? { token, source: 'bearer' } : undefined;
  }
  const cookie = SAFE_METHODS.has(req.method) ? cookieOf(req.headers) : undefined;
  if (cookie) return { token: cookie, source: 'cookie' };
  const query = req.query?.accessToken;
  return allowQuery && typeof query === 'string' && query ? { token: query, source: 'query' } : undefined;
}
