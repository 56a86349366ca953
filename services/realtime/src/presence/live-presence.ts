import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { PRESENCE_HEARTBEAT_MS, PRESENCE_REPORT_MS, type ParsedClientPayloadOf } from '@uis/proto';
import { sessionRoom, type LiveSocket } from '../live-session/live-socket';
import { PRESENCE, type PresenceStore } from './presence-store';

/** A report sooner than this after the previous one of the same socket is dropped (a client's timer jitters). */
const REPORT_MIN_GAP_MS = PRESENCE_REPORT_MS * 0.8;

/**
 * This replica's share of the monitor: the participants' sockets it holds, written to the shared
 * presence store when they join, every heartbeat while they stay, when they report, and when they
 * leave. Presence is best effort: a failed write is logged and never fails a join or an event.
 */
@Injectable()
export class LivePresence implements OnModuleDestroy {
  /** Each participant socket on this replica, with the sessions it joined and when it last reported. */
  private readonly sockets = new Map<LiveSocket, Map<string, { lastReport: number }>>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    @Inject(PRESENCE) private readonly store: PresenceStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A participant's socket joined (or, after a reconnect, rejoined) the session's room. */
  joined(socket: LiveSocket, sessionId: string): void {
    let sessions = this.sockets.get(socket);
    if (!sessions) {
      sessions = new Map();
      this.sockets.set(socket, sessions);
      socket.once('disconnect', () => this.disconnected(socket));
    }
    // A resync on the same connection is not another join.
    if (sessions.has(sessionId)) return;
    sessions.set(sessionId, { lastReport: 0 });
    const { id: userId, name, email } = socket.data.user;
    this.write(
      'join',
      this.store.joined(sessionId, { socketId: socket.id, userId, name, email }, Date.now()),
    );
    this.heartbeat ??= setInterval(() => this.beat(), PRESENCE_HEARTBEAT_MS);
    this.heartbeat.unref?.();
  }

  /** A participant's report; dropped when the socket is not in the session or reports too often. */
  report(socket: LiveSocket, { sessionId, ...reading }: ParsedClientPayloadOf<'presenceReport'>): void {
    const joined = this.sockets.get(socket)?.get(sessionId);
    const now = Date.now();
    if (!joined || now - joined.lastReport < REPORT_MIN_GAP_MS) return;
    joined.lastReport = now;
    this.write('report', this.store.report(sessionId, socket.id, { ...reading, receivedAt: now }));
  }

  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private disconnected(socket: LiveSocket): void {
    const sessions = this.sockets.get(socket);
    this.sockets.delete(socket);
    const now = Date.now();
    for (const sessionId of sessions?.keys() ?? []) {
      this.write('leave', this.store.ended(sessionId, socket.id, now));
    }
    if (this.sockets.size === 0) this.onModuleDestroy();
  }

  /**
   * Refreshes every socket still in its sessions' rooms; one that left a room (its access ended)
   * is ended there. A replica that dies stops this, and its sockets read as gone soon after.
   */
  private beat(): void {
    const now = Date.now();
    const present = new Map<string, string[]>();
    for (const [socket, sessions] of this.sockets) {
      for (const sessionId of sessions.keys()) {
        if (!socket.rooms.has(sessionRoom(sessionId))) {
          sessions.delete(sessionId);
          this.write('leave', this.store.ended(sessionId, socket.id, now));
          continue;
        }
        const list = present.get(sessionId) ?? [];
        list.push(socket.id);
        present.set(sessionId, list);
      }
    }
    this.write('heartbeat', this.store.seen(present, now));
  }

  private write(what: string, done: Promise<void>): void {
    done.catch((err: unknown) => this.logger.warn({ err, what }, 'presence write failed'));
  }
}
