import { Inject, Injectable } from '@nestjs/common';
import { AppError, LOGGER, SessionAccessClient, type Logger } from '@uis/kit';
import { ERROR_CODES } from '@uis/proto';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { REALTIME_TEXTS as TEXTS } from '../realtime.texts';
import { LIVE_ACCESS } from './live-access';
import { ownerRoom, sessionRoom, type LiveServer, type LiveSocket } from './live-socket';

/**
 * Studies' notice that who may be in sessions changed (a scope or type edit) or that they were
 * deleted: every replica forgets its cached answers for them and checks its own sockets in their
 * rooms again, so a participant removed from a scope stops receiving the session at once, not
 * when they next send an event.
 */
@Injectable()
export class SessionAccessWatch {
  private server?: LiveServer;

  constructor(
    @Inject(LIVE_ACCESS) private readonly access: SessionAccessClient,
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  bind(server: LiveServer): void {
    this.server = server;
    server.on('sessionAccessChanged', (sessionIds, deleted) => void this.recheck(sessionIds, deleted));
    server.on('sessionEnded', (sessionId, completionUrl) => void this.closeRoom(sessionId, completionUrl));
  }

  /** From studies (one replica hears it): tell the other replicas, and check this one's sockets. */
  async changed(sessionIds: string[], deleted: boolean): Promise<void> {
    // The in-memory adapter has no other replicas to tell (and warns when asked to).
    if (this.config.REDIS_URL) this.server?.serverSideEmit('sessionAccessChanged', sessionIds, deleted);
    await this.recheck(sessionIds, deleted);
  }

  /**
   * The session ended (its state is stored already): every replica forgets its answers, tells its
   * own sockets in the room (but the sender, whose acknowledgement says it) and takes them out of
   * the room, so nothing of the session reaches them any more. Each replica tells its own sockets
   * itself, after it forgot: the event and the removal cannot pass each other.
   */
  async ended(sessionId: string, completionUrl: string | null, sender: LiveSocket): Promise<void> {
    if (this.config.REDIS_URL) this.server?.serverSideEmit('sessionEnded', sessionId, completionUrl);
    await this.closeRoom(sessionId, completionUrl, sender.id);
  }

  private async closeRoom(sessionId: string, completionUrl: string | null, senderId?: string): Promise<void> {
    this.access.forget([sessionId]);
    await Promise.all(
      this.localSocketsIn(sessionRoom(sessionId)).map((socket) => {
        if (socket.id !== senderId) socket.emit('sessionEnded', { sessionId, completionUrl });
        return Promise.all([socket.leave(sessionRoom(sessionId)), socket.leave(ownerRoom(sessionId))]);
      }),
    );
  }

  private async recheck(sessionIds: readonly string[], deleted: boolean): Promise<void> {
    this.access.forget(sessionIds);
    const checks: Promise<void>[] = [];
    for (const sessionId of sessionIds) {
      for (const socket of this.localSocketsIn(sessionRoom(sessionId))) {
        checks.push(deleted ? this.remove(socket, sessionId, TEXTS.deleted) : this.check(socket, sessionId));
      }
    }
    await Promise.all(checks);
  }

  private async check(socket: LiveSocket, sessionId: string): Promise<void> {
    try {
      const { state = 'live' } = await this.access.requireInRoom(socket.data.user, sessionId);
      // Still in: where the session is now (a participant waiting goes in when it starts).
      socket.emit('sessionState', { sessionId, state });
    } catch (error) {
      if (error instanceof AppError && error.httpStatus < 500) {
        // A new consent text to agree to, or the end, says so; anything else is a removal.
        const own = error.code === ERROR_CODES.CONSENT_REQUIRED || error.code === ERROR_CODES.SESSION_ENDED;
        await this.remove(socket, sessionId, own ? error.message : TEXTS.removed);
      } else {
        // Studies cannot answer now: the next event of this socket is checked again.
        this.logger.warn({ sessionId, err: (error as Error).message }, 'could not recheck a live member');
      }
    }
  }

  private async remove(socket: LiveSocket, sessionId: string, message: string): Promise<void> {
    await Promise.all([socket.leave(sessionRoom(sessionId)), socket.leave(ownerRoom(sessionId))]);
    socket.emit('accessEnded', { sessionId, message });
  }

  private localSocketsIn(room: string): LiveSocket[] {
    const server = this.server;
    if (!server) return [];
    const ids = server.of('/').adapter.rooms.get(room) ?? new Set<string>();
    return [...ids].flatMap((id) => server.sockets.sockets.get(id) ?? []);
  }
}
