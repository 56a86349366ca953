import { accessTokenOfHeaders, originRefusal, verifyAccessToken } from '@uis/kit';
import { ERROR_CODES, type ErrorCode } from '@uis/proto';
import type { LiveSocket } from '../live/live-socket';

export const HANDSHAKE_TEXTS = {
  missingToken: 'Sign in first: the connection carries no access token.',
  badToken: 'Sign in first: the access token is expired or invalid.',
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
 * ports).
 */
export function handshakeToken(handshake: LiveSocket['handshake']): string | undefined {
  const auth = handshake.auth as { token?: unknown } | undefined;
  if (typeof auth?.token === 'string' && auth.token) return auth.token;
  return accessTokenOfHeaders(handshake.headers);
}

/**
 * socket.io middleware, run on every connection (and on a recovered one: recovery does not skip
 * it): a browser's Origin must be allowed (kit's originRefusal), and the token must be ours and current.
 */
export function handshakeMiddleware(secret: string, allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (socket: LiveSocket, next: (error?: Error) => void): void => {
    const refusal = originRefusal(allowed, socket.handshake.headers.origin);
    if (refusal) return next(new HandshakeRefusal(ERROR_CODES.FORBIDDEN, refusal));
    const token = handshakeToken(socket.handshake);
    if (!token) return next(new HandshakeRefusal(ERROR_CODES.UNAUTHENTICATED, HANDSHAKE_TEXTS.missingToken));
    const user = verifyAccessToken(secret, token);
    if (!user) return next(new HandshakeRefusal(ERROR_CODES.UNAUTHENTICATED, HANDSHAKE_TEXTS.badToken));
    socket.data.user = user;
    next();
  };
}
