import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';

/** The cookie the web app keeps the access token in; a <video> element can only send cookies. */
export const ACCESS_TOKEN_COOKIE = 'accessToken';

/**
 * The access token a request's headers carry: bearer header first, then the cookie. Shared by HTTP
 * routes and the realtime handshake (a browser's WebSocket sends the cookie, never a header).
 */
export function accessTokenOfHeaders(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  return headers.cookie ? parseCookies(headers.cookie)[ACCESS_TOKEN_COOKIE] || undefined : undefined;
}

/** Finds the caller's access token: bearer header first, then the cookie, then (if allowed) the query. */
export function accessTokenOf(req: Request, allowQuery: boolean): string | undefined {
  const token = accessTokenOfHeaders(req.headers);
  // A bearer header, even an empty one, is the caller's answer: the query is not tried.
  if (token !== undefined || req.headers.authorization?.startsWith('Bearer ')) return token;
  const query = req.query?.accessToken;
  return allowQuery && typeof query === 'string' && query ? query : undefined;
}
