import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  SESSION_ACCESS_TEXTS,
  SessionAccessClient,
  forbidden,
  ownerAccess,
  type SessionAccess,
} from '@uis/kit';
import {
  ackOk,
  type ClientEventAcks,
  type ClientEventName,
  type MessageRecord,
  type ParsedClientPayloadOf,
} from '@uis/proto';
import {
  ROOM_STATE,
  type LiveRoomState,
  type RoomStateStore,
  type StoredVideoStatus,
} from '../room-state/room-state';
import { ownerRoom, sessionRoom, type LiveSocket } from './live-socket';
import { SessionRecords } from './session-records';

/** The access client realtime checks every event with: studies' answers, cached briefly (README). */
export const LIVE_ACCESS = Symbol('LIVE_ACCESS');

/**
 * How far back a rejoining author's own messages are announced to the room again. A replica that
 * dies between storing a message and broadcasting it leaves the room without it; its author is
 * the one who reconnects (within seconds) and rejoins, which is when the others are told.
 */
export const REANNOUNCE_WINDOW_MS = 30_000;
/** At most this many messages are re-announced per rejoin. */
export const REANNOUNCE_MAX = 20;

export const TEXTS = {
  ownerOnly: SESSION_ACCESS_TEXTS.ownerOnly,
  participantsClick: 'Only participants click the video; the researcher reviews their clicks.',
  clicksOff: 'Clicks are not allowed right now: the researcher has not enabled them.',
} as const;

export type LiveHandler<E extends ClientEventName> = (
  socket: LiveSocket,
  payload: ParsedClientPayloadOf<E>,
) => Promise<ClientEventAcks[E]>;

/**
 * The rules of a live session (spec sections 4 and 7), one method per client event. Each method
 * gets a payload already validated and answers what the sender's acknowledgement carries; a
 * refusal is a thrown AppError, which LiveEvents turns into an error acknowledgement.
 */
@Injectable()
export class LiveSessionService {
  constructor(
    @Inject(LIVE_ACCESS) private readonly access: SessionAccessClient,
    private readonly records: SessionRecords,
    @Inject(ROOM_STATE) private readonly rooms: RoomStateStore,
  ) {}

  /** initMessage and sync: join, then the live state, then the full list. */
  readonly join = async (
    socket: LiveSocket,
    { sessionId }: { sessionId: string },
  ): Promise<MessageRecord[]> => {
    const { role } = await this.member(socket, sessionId);
    // In the room before the list is read: a message stored after the read reaches this socket as
    // messageAdded, which the client keeps when the list arrives (proto's LiveMessageList).
    await socket.join(
      role === 'owner' ? [sessionRoom(sessionId), ownerRoom(sessionId)] : sessionRoom(sessionId),
    );
    // Sent straight after the read, before anything else is awaited: a change stored after the read
    // is broadcast after this, so the client ends with the newer state.
    this.sendRoomState(socket, sessionId, role, await this.rooms.read(sessionId));
    const messages = await this.records.messages(sessionId);
    socket.emit('message', ackOk(messages));
    this.reannounceOwnRecent(socket, sessionId, messages);
    return messages;
  };

  /** Stored before anyone is told, so what a client saw is never lost. */
  readonly message: LiveHandler<'message'> = async (socket, { sessionId, message }) => {
    const { user } = socket.data;
    await this.member(socket, sessionId);
    const record = await this.records.appendMessage(user, sessionId, message);
    socket.nsp.to(sessionRoom(sessionId)).emit('messageAdded', { sessionId, message: record });
    return record;
  };

  readonly videoStatus: LiveHandler<'videoStatus'> = async (socket, status) => {
    await this.requireOwner(socket, status.sessionId);
    const { paused, currentTime, sessionId } = status;
    await this.rooms.update(sessionId, { videoStatus: { paused, currentTime, at: Date.now() } });
    socket.to(sessionRoom(sessionId)).emit('videoStatus', { paused, currentTime, sessionId });
    return null;
  };

  /**
   * Answered from the researcher's last status, moved on by the time since when the video plays.
   * Only when there is none yet does the researcher's client get asked (the spec's flow).
   */
  readonly syncVideoStatus: LiveHandler<'syncVideoStatus'> = async (socket, { sessionId }) => {
    const { role } = await this.member(socket, sessionId);
    const { videoStatus } = await this.rooms.read(sessionId);
    if (videoStatus) socket.emit('videoStatus', statusNow(videoStatus, sessionId));
    else if (role === 'participant') socket.to(ownerRoom(sessionId)).emit('syncVideoStatus', { sessionId });
    return null;
  };

  readonly toggleParticipantClicks: LiveHandler<'toggleParticipantClicks'> = async (
    socket,
    { sessionId, allowClicks },
  ) => {
    await this.requireOwner(socket, sessionId);
    await this.rooms.update(sessionId, { allowClicks });
    socket.nsp.to(sessionRoom(sessionId)).emit('participantClicksToggled', { sessionId, allowClicks });
    return null;
  };

  /** A participant's click while the researcher allows clicks; stored before it is acknowledged. */
  readonly clickVideo: LiveHandler<'clickVideo'> = async (socket, { sessionId, x, y, color, videoTime }) => {
    const { user } = socket.data;
    const { role } = await this.member(socket, sessionId);
    if (role !== 'participant') throw forbidden(TEXTS.participantsClick);
    const { allowClicks } = await this.rooms.read(sessionId);
    if (!allowClicks) throw forbidden(TEXTS.clicksOff);
    return this.records.appendPixel(user, { sessionId, x, y, color, videoTime: videoTime ?? null });
  };

  /**
   * The researcher's peer id is kept and sent to the participants, who call it; a participant's
   * goes to the researcher.
   */
  readonly joinVideoChat: LiveHandler<'joinVideoChat'> = async (socket, { userId, sessionId }) => {
    const { role } = await this.member(socket, sessionId);
    if (role === 'owner') {
      await this.rooms.update(sessionId, { researcherPeerId: userId });
      socket
        .to(sessionRoom(sessionId))
        .except(ownerRoom(sessionId))
        .emit('joinVideoChat', { userId, sessionId });
    } else {
      socket.to(ownerRoom(sessionId)).emit('joinVideoChat', { userId, sessionId });
    }
    return null;
  };

  /**
   * A participant asking is told the researcher's peer id (or, when none is known, the researcher
   * is asked to announce it); the researcher asking has the participants announce themselves.
   */
  readonly syncVideoChat: LiveHandler<'syncVideoChat'> = async (socket, { sessionId }) => {
    const { role } = await this.member(socket, sessionId);
    if (role === 'owner') {
      socket.to(sessionRoom(sessionId)).except(ownerRoom(sessionId)).emit('syncVideoChat', { sessionId });
      return null;
    }
    const { researcherPeerId } = await this.rooms.read(sessionId);
    if (researcherPeerId) socket.emit('joinVideoChat', { userId: researcherPeerId, sessionId });
    else socket.to(ownerRoom(sessionId)).emit('syncVideoChat', { sessionId });
    return null;
  };

  /**
   * The owner or a participant in scope (studies' answer, cached briefly). Anyone else is refused,
   * and a socket that was in the room (removed from the scope since) leaves it, so it stops
   * receiving the session's broadcasts.
   */
  private async member(socket: LiveSocket, sessionId: string): Promise<SessionAccess> {
    try {
      return await this.access.requireMember(socket.data.user, sessionId);
    } catch (error) {
      if (error instanceof AppError && error.httpStatus < 500) {
        await Promise.all([socket.leave(sessionRoom(sessionId)), socket.leave(ownerRoom(sessionId))]);
      }
      throw error;
    }
  }

  /** A member who is not the owner is refused but stays in the room (member() decides who leaves). */
  private async requireOwner(socket: LiveSocket, sessionId: string): Promise<SessionAccess> {
    return ownerAccess(await this.member(socket, sessionId));
  }

  private sendRoomState(
    socket: LiveSocket,
    sessionId: string,
    role: SessionAccess['role'],
    room: LiveRoomState,
  ): void {
    socket.emit('participantClicksToggled', { sessionId, allowClicks: room.allowClicks });
    // The researcher is the source of the status; only participants follow it.
    if (role === 'participant' && room.videoStatus) {
      socket.emit('videoStatus', statusNow(room.videoStatus, sessionId));
    }
  }

  /** The rejoining user's own recent messages, again, to everyone else in the room (see the window). */
  private reannounceOwnRecent(
    socket: LiveSocket,
    sessionId: string,
    messages: readonly MessageRecord[],
  ): void {
    const since = new Date(Date.now() - REANNOUNCE_WINDOW_MS).toISOString();
    const { name } = socket.data.user;
    const own: MessageRecord[] = [];
    for (let i = messages.length - 1; i >= 0 && own.length < REANNOUNCE_MAX; i -= 1) {
      const message = messages[i]!;
      if (message.time < since) break;
      if (message.name === name) own.push(message);
    }
    for (const message of own.reverse()) {
      socket.to(sessionRoom(sessionId)).emit('messageAdded', { sessionId, message });
    }
  }
}

/** The status as it is now: a playing video has moved on since it was stored. */
export function statusNow(
  stored: StoredVideoStatus,
  sessionId: string,
  now = Date.now(),
): { paused: boolean; currentTime: number; sessionId: string } {
  const elapsed = stored.paused ? 0 : Math.max(0, now - stored.at) / 1000;
  return { paused: stored.paused, currentTime: stored.currentTime + elapsed, sessionId };
}
