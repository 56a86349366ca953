import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppError, LOGGER, Revocations, type Logger } from '@uis/kit';
import { RegistrationGate } from './registration-gate';
import type { SessionScopedSocket } from './session-scoped-socket';

/** WebSocket close code for "no longer allowed" (policy violation); the reason says which. */
const POLICY_VIOLATION = 1008;

export const PEER_END_REASONS = {
  expired: 'access token expired',
  revoked: 'signed out',
  removed: 'no longer in this session',
  deleted: 'session deleted',
} as const;

/**
 * The registered peers of this server, each ended when it is no longer allowed: its access token
 * expired (the PeerJS client reconnects, with the cookie the web app has renewed), its login or user
 * was revoked, or studies says the session's scope changed (checked again) or the session is gone.
 * Ending a registration ends its signalling; calls already set up are the browsers' own, and the web
 * client hangs up when realtime tells it the user left the session.
 */
@Injectable()
export class AdmittedPeers implements OnModuleDestroy {
  private readonly expiry = new Map<SessionScopedSocket, NodeJS.Timeout>();
  private readonly stopHearingRevocations: () => void;

  constructor(
    private readonly gate: RegistrationGate,
    private readonly revocations: Revocations,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.stopHearingRevocations = revocations.onRevoked(() => this.endRevoked());
  }

  /** A socket PeerJS accepted: followed until it closes. */
  add(socket: SessionScopedSocket): void {
    const peer = socket.admitted;
    if (!peer) return;
    const delay = Math.max(0, peer.expiresAt - Date.now());
    this.expiry.set(
      socket,
      setTimeout(() => this.end(socket, PEER_END_REASONS.expired), delay),
    );
    socket.once('close', () => {
      clearTimeout(this.expiry.get(socket));
      this.expiry.delete(socket);
    });
  }

  /** Studies' notice: peers of deleted sessions end; the others are checked again. */
  async sessionAccessChanged(sessionIds: readonly string[], deleted: boolean): Promise<void> {
    const sessions = new Set(sessionIds);
    const checks = [...this.expiry.keys()]
      .filter((socket) => socket.admitted && sessions.has(socket.admitted.sessionId))
      .map(async (socket) => {
        if (deleted) return this.end(socket, PEER_END_REASONS.deleted);
        try {
          await this.gate.requireCallMember(socket.admitted!.user, socket.admitted!.sessionId);
        } catch (error) {
          if (error instanceof AppError && error.httpStatus < 500) this.end(socket, PEER_END_REASONS.removed);
          else this.logger.warn({ err: (error as Error).message }, 'could not recheck a peer');
        }
      });
    await Promise.all(checks);
  }

  onModuleDestroy(): void {
    this.stopHearingRevocations();
    for (const timer of this.expiry.values()) clearTimeout(timer);
  }

  /** Checks every peer against the revocations, which now include the new one. */
  private endRevoked(): void {
    for (const socket of this.expiry.keys()) {
      if (socket.admitted && this.revocations.isRevoked(socket.admitted)) {
        this.end(socket, PEER_END_REASONS.revoked);
      }
    }
  }

  private end(socket: SessionScopedSocket, reason: string): void {
    this.logger.info({ peerId: socket.admitted?.peerId, reason }, 'peer registration ended');
    socket.close(POLICY_VIOLATION, reason);
  }
}
