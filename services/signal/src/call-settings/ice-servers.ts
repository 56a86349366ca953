import { createHmac } from 'node:crypto';
import type { IceServer } from '@uis/proto';
import type { SignalConfig } from '../signal.config';

/**
 * The spec's "public STUN and TURN servers" (section 7): the PeerJS client's own defaults
 * (peerjs 1.5, `DEFAULT_CONFIG`), used when ICE_SERVERS is unset. The TURN server is a public
 * courtesy of the PeerJS project, with a well-known password and no promise of availability: a
 * deployment runs its own (TURN_URLS), which then takes its place.
 */
export const PUBLIC_STUN_SERVERS: readonly IceServer[] = [{ urls: 'stun:stun.l.google.com:19302' }];
export const PUBLIC_TURN_SERVERS: readonly IceServer[] = [
  {
    urls: ['turn:eu-0.turn.peerjs.com:3478', 'turn:us-0.turn.peerjs.com:3478'],
    username: 'peerjs',
    credential: 'peerjsp',
  },
];

export interface TurnCredentials {
  username: string;
  credential: string;
  /** Epoch ms when coturn stops accepting them. */
  expiresAt: number;
}

/**
 * Credentials of coturn's shared-secret mode (`use-auth-secret`, the "TURN REST API"): the username
 * is `<expiry, unix seconds>:<user id>`, the credential base64(HMAC-SHA1(secret, username)). coturn
 * recomputes the HMAC and refuses an expired username, so nothing is stored and nothing static
 * reaches a browser; the user id lets coturn's logs say whose relay it was.
 */
export function turnCredentials(
  secret: string,
  userId: string,
  ttlSeconds: number,
  now = Date.now(),
): TurnCredentials {
  const expiry = Math.floor(now / 1000) + ttlSeconds;
  const username = `${expiry}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential, expiresAt: expiry * 1000 };
}

/**
 * The ICE servers one caller gets: ICE_SERVERS as configured, or by default the public STUN server
 * and either our own TURN server or, without one, the public TURN server; our own TURN server
 * always with this caller's credentials.
 */
export function iceServersFor(
  config: Pick<SignalConfig, 'ICE_SERVERS' | 'TURN_URLS' | 'TURN_SECRET' | 'TURN_CREDENTIAL_TTL_SECONDS'>,
  userId: string,
  now = Date.now(),
): { iceServers: IceServer[]; expiresAt: number | null } {
  const ownTurn = config.TURN_URLS.length > 0 && config.TURN_SECRET ? config.TURN_SECRET : null;
  const configured = config.ICE_SERVERS ?? [...PUBLIC_STUN_SERVERS, ...(ownTurn ? [] : PUBLIC_TURN_SERVERS)];
  if (!ownTurn) return { iceServers: [...configured], expiresAt: null };
  const { username, credential, expiresAt } = turnCredentials(
    ownTurn,
    userId,
    config.TURN_CREDENTIAL_TTL_SECONDS,
    now,
  );
  return { iceServers: [...configured, { urls: config.TURN_URLS, username, credential }], expiresAt };
}
