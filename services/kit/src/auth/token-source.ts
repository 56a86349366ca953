import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Request } from 'express';
import { TOKEN_COOKIES } from '@uis/proto';

/**
 * The access token a request's headers carry: bearer header first, then the cookie the web app keeps
 * it in (proto's TOKEN_COOKIES; a <video> element or a browser's WebSocket can send nothing else).
 * Shared by HTTP routes, the realtime handshake and the PeerJS registration gate.
 */
export function accessTokenOfHeaders(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  return headers.cookie ? parseCookies(headers.cookie)[TOKEN_COOKIES.accessToken] || undefined : undefined;
}

/** Finds the caller's access token: bearer header first, then the cookie, then (if allowed) the query. */
export function accessTokenOf(req: Request, allowQuery: boolean): string | undefined {
  const token = accessTokenOfHeaders(req.headers);
  // A bearer header, even an empty one, is the caller's answer: the query is not tried.
  if (token !== undefined || req.headers.authorization?.startsWith('Bearer ')) return token;
  const query = req.query?.accessToken;
  return allowQuery && typeof query === 'string' && query ? query : undefined;
}
