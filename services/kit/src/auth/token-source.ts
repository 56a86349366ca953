import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';

/** The cookie the web app keeps the access token in; a <video> element can only send cookies. */
export const ACCESS_TOKEN_COOKIE = 'accessToken';

/** Finds the caller's access token: bearer header first, then the cookie, then (if allowed) the query. */
export function accessTokenOf(req: Request, allowQuery: boolean): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  const cookie = req.headers.cookie ? parseCookies(req.headers.cookie)[ACCESS_TOKEN_COOKIE] : undefined;
  if (cookie) return cookie;
  const query = req.query?.accessToken;
  return allowQuery && typeof query === 'string' && query ? query : undefined;
}
