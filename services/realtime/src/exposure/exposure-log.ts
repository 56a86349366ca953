import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, InternalClient, LOGGER, type AuthUser, type Logger } from '@uis/kit';
import {
  EXPOSURE_PER_APPEND,
  internalRoutes,
  type ClientExposureEvent,
  type InternalRequestOf,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { positionAt } from '../live-session/playback-log';
import type { LiveSocket } from '../live-session/live-socket';
import { ROOM_STATE, type RoomStateStore } from '../room-state/room-state';

type AppendedExposure = InternalRequestOf<'recordsAppendExposure'>['items'][number];

/**
 * Records owns the exposure log: realtime appends the batches participants' clients report and the
 * joins and leaves it sees itself, grouped (what arrives while one call is in flight goes as the
 * next, one INSERT). Stored when `report` resolves, so a client drops a batch only once it is kept.
 */
@Injectable()
export class ExposureLog {
  private readonly appends: CallBatcher<AppendedExposure, boolean>;
  /** Each participant socket on this replica and the sessions it joined (a resync is not a join). */
  private readonly joined = new WeakMap<LiveSocket, Set<string>>();

  constructor(
    internal: InternalClient,
    @Inject(ROOM_STATE) private readonly rooms: RoomStateStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.appends = new CallBatcher(
      async (items) => {
        const { storedIds } = await internal.call(internalRoutes.recordsAppendExposure, { items });
        const stored = new Set(storedIds);
        // An id twice in one call (a batch resent while its first send was still queued) counts once.
        return items.map((item) => stored.delete(item.eventId));
      },
      { maxItems: EXPOSURE_PER_APPEND },
    );
  }

  /** A participant's batch, stored when this resolves; answers how many of its events were new. */
  async report(user: AuthUser, sessionId: string, events: readonly ClientExposureEvent[]): Promise<number> {
    const stored = await Promise.all(
      events.map(({ eventId, kind, videoTime, clientTime }) =>
        this.appends.add({ sessionId, ...authorOf(user), eventId, kind, videoTime, clientTime }),
      ),
    );
    return stored.filter(Boolean).length;
  }

  /**
   * A participant's socket joined the session's room: logged, and its leave when it disconnects.
   * Best effort, as presence is: a failure is logged and never fails the join.
   */
  joinedRoom(socket: LiveSocket, sessionId: string): void {
    let sessions = this.joined.get(socket);
    if (!sessions) {
      sessions = new Set();
      this.joined.set(socket, sessions);
      socket.once('disconnect', () => {
        for (const left of sessions!) this.logOwn(socket.data.user, left, 'leave');
      });
    }
    if (sessions.has(sessionId)) return;
    sessions.add(sessionId);
    this.logOwn(socket.data.user, sessionId, 'join');
  }

  /** A join or leave, at the session's video time now (the room's status), or null before any. */
  private logOwn(user: AuthUser, sessionId: string, kind: 'join' | 'leave'): void {
    const now = Date.now();
    this.rooms
      .read(sessionId)
      .then(({ videoStatus }) =>
        this.appends.add({
          sessionId,
          ...authorOf(user),
          eventId: randomUUID(),
          kind,
          videoTime: videoStatus ? positionAt(videoStatus, now) : null,
          clientTime: null,
        }),
      )
      .catch((err: unknown) =>
        this.logger.warn({ sessionId, kind, err: String(err) }, 'exposure not logged'),
      );
  }
}

/** Who an append is recorded for: the socket's signed-in user. */
const authorOf = (user: AuthUser) => ({ userId: user.id, email: user.email, name: user.name });
