import { accessTokenOfHeaders } from '@uis/kit';
import type { ErrorCode } from '@uis/proto';
import type { LiveSocket } from '../live-session/live-socket';

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
