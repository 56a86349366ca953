import { SESSION_ENDED_TEXT, accessTokenOfHeaders } from '@uis/kit';
import type { ErrorCode } from '@uis/proto';
import type { LiveSocket } from '../live/live-socket';

export const HANDSHAKE_TEXTS = {
  missingToken: 'Sign in first: the connection carries no access token.',
  badToken: 'Sign in first: the access token is expired or invalid.',
  revoked: SESSION_ENDED_TEXT,
  tooManySockets: (max: number) =>
    `Too many connections: you have ${max} open already. Close another tab or window first.`,
} as const;

/** A refused connection: the client's connect_error carries the message and `data.code`. */
export class HandshakeRefusal extends Error {
  override name = 'HandshakeRefusal';
  readonly data: { code: ErrorCode };
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.data = { code };
  }
}

/**
 * The token a handshake carries: `auth.token` (socket.io clients), else the Authorization header
 * (Node clients), else the accessToken cookie (a browser on the same host sends it: cookies ignore
 * ports; the Origin check keeps other sites out).
 */
export function handshakeToken(handshake: LiveSocket['handshake']): string | undefined {
  const auth = handshake.auth as { token?: unknown } | undefined;
  if (typeof auth?.token === 'string' && auth.token) return auth.token;
  return accessTokenOfHeaders(handshake.headers);
}
