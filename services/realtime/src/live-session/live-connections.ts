import { HttpStatus, Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  AppError,
  JWT_SECRET,
  LOGGER,
  Revocations,
  forbidden,
  originRefusal,
  unauthenticated,
  verifyAccessToken,
  type Logger,
  type Revocation,
  type VerifiedAccess,
} from '@uis/kit';
import { ERROR_CODES, type ConnectionEndedEvent } from '@uis/proto';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { REALTIME_TEXTS as TEXTS } from '../realtime.texts';
import { HandshakeRefusal, handshakeToken } from '../transport/handshake';
import type { LiveServer, LiveSocket } from './live-socket';

/**
 * The connections of this replica: who may open one (the handshake), how many one user may hold,
 * and when one must end: its access token expired without a renewal, or its login or user was
 * revoked (logout, a replayed refresh token, account deletion) anywhere in the deployment.
 */
@Injectable()
export class LiveConnections implements OnModuleDestroy {
  private server?: LiveServer;
  private readonly allowedOrigins: ReadonlySet<string>;
  private readonly socketsPerUser = new Map<string, number>();
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();
  private readonly stopHearingRevocations: () => void;

  constructor(
    @Inject(JWT_SECRET) private readonly secret: string,
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly revocations: Revocations,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.allowedOrigins = new Set(config.allowedOrigins);
    this.stopHearingRevocations = revocations.onRevoked((revocation) => this.endRevoked(revocation));
  }

  /** Checks every handshake of `server` (on reconnects too: connection state recovery runs it again). */
  bind(server: LiveServer): void {
    this.server = server;
    server.use((socket, next) => {
      try {
        socket.data = this.admit(socket);
        next();
      } catch (error) {
        next(error as Error);
      }
    });
  }

  /** A socket that passed the handshake: counted for its user, and ended when its token expires. */
  opened(socket: LiveSocket): void {
    const { id: userId } = socket.data.user;
    this.socketsPerUser.set(userId, (this.socketsPerUser.get(userId) ?? 0) + 1);
    this.scheduleExpiry(socket);
    socket.once('disconnect', () => {
      clearTimeout(this.expiryTimers.get(socket.id));
      this.expiryTimers.delete(socket.id);
      const left = (this.socketsPerUser.get(userId) ?? 1) - 1;
      if (left > 0) this.socketsPerUser.set(userId, left);
      else this.socketsPerUser.delete(userId);
    });
  }

  /**
   * Whether the socket may still act. Revocations are heard as they happen; this also catches a
   * revocation learnt while an event was on its way, and a timer that fired late.
   */
  stillValid(socket: LiveSocket): boolean {
    if (this.revocations.isRevoked(socket.data)) {
      this.end(socket, { code: ERROR_CODES.REVOKED, message: TEXTS.revoked });
      return false;
    }
    if (socket.data.expiresAt <= Date.now()) {
      this.end(socket, { code: ERROR_CODES.UNAUTHENTICATED, message: TEXTS.expired });
      return false;
    }
    return true;
  }

  /** renewToken: the same user's newer token keeps the connection open until it expires. */
  renew(socket: LiveSocket, token: string): Promise<null> {
    const verified = verifyAccessToken(this.secret, token);
    if (!verified) throw unauthenticated(TEXTS.badToken);
    // As at the handshake: a signed-out login's token says so, not "expired or invalid".
    if (this.revocations.isRevoked(verified)) {
      throw new AppError(HttpStatus.UNAUTHORIZED, ERROR_CODES.REVOKED, TEXTS.revoked);
    }
    if (verified.user.id !== socket.data.user.id) throw forbidden(TEXTS.otherUser);
    socket.data = { user: verified.user, issuedAt: verified.issuedAt, expiresAt: verified.expiresAt };
    this.scheduleExpiry(socket);
    return Promise.resolve(null);
  }

  onModuleDestroy(): void {
    this.stopHearingRevocations();
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
  }

  private admit(socket: LiveSocket): VerifiedAccess {
    const refusal = originRefusal(this.allowedOrigins, socket.handshake.headers.origin);
    if (refusal) throw new HandshakeRefusal(ERROR_CODES.FORBIDDEN, refusal);
    const token = handshakeToken(socket.handshake);
    if (!token) throw new HandshakeRefusal(ERROR_CODES.UNAUTHENTICATED, TEXTS.missingToken);
    const verified = verifyAccessToken(this.secret, token);
    if (!verified) throw new HandshakeRefusal(ERROR_CODES.UNAUTHENTICATED, TEXTS.badToken);
    if (this.revocations.isRevoked(verified)) {
      throw new HandshakeRefusal(ERROR_CODES.REVOKED, TEXTS.revoked);
    }
    const max = this.config.SOCKETS_PER_USER;
    if ((this.socketsPerUser.get(verified.user.id) ?? 0) >= max) {
      this.logger.warn({ userId: verified.user.id, max }, 'connection refused: too many sockets');
      throw new HandshakeRefusal(ERROR_CODES.RATE_LIMITED, TEXTS.tooManySockets(max));
    }
    return verified;
  }

  private scheduleExpiry(socket: LiveSocket): void {
    clearTimeout(this.expiryTimers.get(socket.id));
    const delay = Math.max(0, socket.data.expiresAt - Date.now());
    // A timer may fire a millisecond early (it counts from the event loop's cached time, which lags
    // the clock): the token is then still valid, and the connection must be checked again, or it
    // would outlive its token until its next event.
    const check = () => {
      if (this.stillValid(socket)) this.scheduleExpiry(socket);
    };
    this.expiryTimers.set(socket.id, setTimeout(check, delay));
  }

  private endRevoked(revocation: Revocation): void {
    for (const socket of this.server?.sockets.sockets.values() ?? []) {
      const { user } = socket.data;
      if (!user) continue; // still in its handshake
      const covered =
        revocation.kind === 'login' ? user.loginId === revocation.id : user.id === revocation.id;
      if (covered) this.stillValid(socket);
    }
  }

  private end(socket: LiveSocket, why: ConnectionEndedEvent): void {
    if (!socket.connected) return;
    this.logger.info({ userId: socket.data.user.id, code: why.code }, 'live connection ended');
    // Not socket.emit: with connection state recovery a socket's own events go through the adapter,
    // which with Redis writes them only once the stream has them, after the disconnect below, so
    // the client would never learn why. Written locally, it goes out before the disconnect (and is
    // not kept for a recovery: a connection ended so is never recovered).
    socket.nsp.local.to(socket.id).emit('connectionEnded', why);
    socket.disconnect(true);
  }
}
