import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import {
  JWT_SECRET,
  LOGGER,
  Revocations,
  SESSION_ENDED_TEXT,
  SessionAccessClient,
  accessTokenOfHeaders,
  badRequest,
  forbidden,
  originRefusal,
  roomAccess,
  unauthenticated,
  unavailable,
  verifyAccessToken,
  type AuthUser,
  type Logger,
  type SessionAccess,
} from '@uis/kit';
import { parsePeerId } from '@uis/proto';
import { SIGNAL_CONFIG, type SignalConfig } from '../signal.config';

/** A registration the gate let through: the peer id, the session and user it names, and its token's times. */
export interface AdmittedPeer {
  peerId: string;
  sessionId: string;
  user: AuthUser;
  issuedAt: number;
  /** Epoch ms: the registration ends then (the PeerJS client reconnects with a renewed cookie). */
  expiresAt: number;
}

/**
 * Who may register a PeerJS id, decided on the WebSocket upgrade before PeerJS sees it:
 *
 * - a browser's Origin must be allowed (ALLOWED_ORIGINS, as for realtime): a WebSocket is not bound
 *   by CORS and carries the cookie, so another page of the same site could otherwise register;
 * - the access token comes from the `accessToken` cookie (browsers send it on the upgrade; the
 *   PeerJS client cannot add headers) or an `Authorization: Bearer` header (other clients). Not
 *   from the query string: URLs end up in proxy logs, and no client needs it;
 * - the id must be `<sessionId>_<userId>[_<instance>]` (proto's peerIdFor) naming the caller, so
 *   nobody can register, or take over, someone else's id, even after its owner left;
 * - the session must be a chat session whose owner the caller is, or whose scope holds them
 *   (asked of studies, as every service does).
 */
@Injectable()
export class RegistrationGate {
  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(
    @Inject(JWT_SECRET) private readonly secret: string,
    @Inject(SIGNAL_CONFIG) config: SignalConfig,
    private readonly sessions: SessionAccessClient,
    private readonly revocations: Revocations,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.allowedOrigins = new Set(config.allowedOrigins);
  }

  /** The admitted peer, or throws the AppError (401, 400, 403, 404, 503) to refuse the upgrade with. */
  async admit(req: IncomingMessage): Promise<AdmittedPeer> {
    const refusal = originRefusal(this.allowedOrigins, req.headers.origin);
    if (refusal) throw forbidden(refusal);
    const token = accessTokenOfHeaders(req.headers);
    const verified = token ? verifyAccessToken(this.secret, token) : null;
    if (!verified) throw unauthenticated();
    if (this.revocations.isRevoked(verified)) throw unauthenticated(SESSION_ENDED_TEXT);
    const { user, issuedAt, expiresAt } = verified;

    const peerId = new URL(req.url ?? '/', 'http://peer').searchParams.get('id') ?? '';
    const parts = parsePeerId(peerId);
    if (!parts) {
      throw badRequest(
        'The peer id must be <sessionId>_<userId>, optionally followed by _<instance> (proto: peerIdFor).',
      );
    }
    if (parts.userId !== user.id.toLowerCase()) throw forbidden('This peer id belongs to someone else.');
    await this.requireCallMember(user, parts.sessionId);
    return { peerId, sessionId: parts.sessionId, user, issuedAt, expiresAt };
  }

  /** The user may be in the session's call: a chat session they own or whose scope holds them. */
  async requireCallMember(user: AuthUser, sessionId: string): Promise<void> {
    const access = await this.requireMember(user, sessionId);
    if (access.sessionType !== 'chat') throw forbidden('Only chat sessions have a call.');
  }

  /** The user owns the session or is in its scope (404 when there is none, 403 when they are not). */
  async requireMember(user: AuthUser, sessionId: string): Promise<SessionAccess> {
    // Any failure to get studies' answer is "try again"; the answer itself is judged as everywhere.
    const answer = await this.sessions.access(user, sessionId).catch((error: unknown) => {
      this.logger.warn({ err: error, sessionId }, 'session check failed');
      throw unavailable('Cannot check the session now; try again.');
    });
    // Nobody calls in once the session has ended.
    return roomAccess(answer);
  }
}
