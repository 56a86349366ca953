import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  InternalClient,
  LOGGER,
  SessionAccessClient,
  forbidden,
  ownerAccess,
  writeAccess,
  type Logger,
  type SessionAccess,
} from '@uis/kit';
import {
  ERROR_CODES,
  VIDEO_STATUS_MAX_SKEW_MS,
  ackOk,
  internalRoutes,
  type ClientEventAcks,
  type ClientEventName,
  type MessageRecord,
  type ParsedClientPayloadOf,
  type SessionLifecycleChange,
  type StampedVideoStatus,
} from '@uis/proto';
import {
  ROOM_STATE,
  type LiveRoomState,
  type RoomStateStore,
  type StoredVideoStatus,
} from '../room-state/room-state';
import { ExposureLimiter } from '../exposure/exposure-limiter';
import { ExposureLog } from '../exposure/exposure-log';
import { LivePresence } from '../presence/live-presence';
import { REALTIME_TEXTS as TEXTS } from '../realtime.texts';
import { PRESENCE, type PresenceStore } from '../presence/presence-store';
import { monitorSnapshot } from '../presence/monitor-snapshot';
import { LIVE_ACCESS } from './live-access';
import { playbackEvents, positionAt } from './playback-log';
import { ownerRoom, sessionRoom, type LiveSocket } from './live-socket';
import { SessionAccessWatch } from './session-access-watch';
import { SessionRecords } from './session-records';
import { WriteLimiter } from './write-limiter';

export { LIVE_ACCESS } from './live-access';

/**
 * How far back a rejoining author's own messages are announced to the room again. A replica that
 * dies between storing a message and broadcasting it leaves the room without it; its author is
 * the one who reconnects (within seconds) and rejoins, which is when the others are told.
 */
export const REANNOUNCE_WINDOW_MS = 30_000;
/** At most this many messages are re-announced per rejoin. */
export const REANNOUNCE_MAX = 20;

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
    private readonly writes: WriteLimiter,
    private readonly presence: LivePresence,
    @Inject(PRESENCE) private readonly presenceStore: PresenceStore,
    private readonly internal: InternalClient,
    private readonly accessWatch: SessionAccessWatch,
    private readonly exposure: ExposureLog,
    private readonly exposureLimits: ExposureLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** initMessage and sync: join, then the live state, then the newest page of the list. */
  readonly join = async (
    socket: LiveSocket,
    { sessionId }: { sessionId: string },
  ): Promise<MessageRecord[]> => {
    const { role, state = 'live' } = await this.member(socket, sessionId);
    // The researcher opening the live page starts a session that has not started: the participants
    // waiting on it hear sessionState (on every replica), this socket below.
    const started =
      role === 'owner' && state === 'not_started' ? await this.lifecycle(sessionId, 'start') : null;
    // In the room before the list is read: a message stored after the read reaches this socket as
    // messageAdded, which the client keeps when the list arrives (proto's LiveMessageList).
    await socket.join(
      role === 'owner' ? [sessionRoom(sessionId), ownerRoom(sessionId)] : sessionRoom(sessionId),
    );
    if (role === 'participant') {
      this.presence.joined(socket, sessionId);
      this.exposure.joinedRoom(socket, sessionId);
    }
    socket.emit('sessionState', { sessionId, state: started?.state ?? state });
    if (started?.changed) await this.accessWatch.changed([sessionId], false);
    // Sent straight after the read, before anything else is awaited: a change stored after the read
    // is broadcast after this, so the client ends with the newer state.
    this.sendRoomState(socket, sessionId, role, await this.rooms.read(sessionId));
    const messages = await this.records.latestMessages(sessionId);
    socket.emit('message', ackOk(messages));
    this.reannounceOwnRecent(socket, sessionId, messages);
    return messages;
  };

  /** history: a page of older messages, for a member scrolling back. */
  readonly history: LiveHandler<'history'> = async (socket, { sessionId, before }) => {
    await this.member(socket, sessionId);
    return this.records.messagesBefore(sessionId, before);
  };

  /**
   * Stored before anyone is told, so what a client saw is never lost; with the session's video time
   * (where the researcher's player is now, by the room's status) and a reaction's action id.
   */
  readonly message: LiveHandler<'message'> = async (socket, { sessionId, message, actionId }) => {
    const { user } = socket.data;
    writeAccess(await this.member(socket, sessionId));
    const [{ videoStatus }] = await Promise.all([
      this.rooms.read(sessionId),
      this.writes.consume(user.id, sessionId),
    ]);
    const videoTime = videoStatus ? positionAt(videoStatus, Date.now()) : null;
    const record = await this.records.appendMessage(user, sessionId, message, { videoTime, actionId });
    socket.nsp.to(sessionRoom(sessionId)).emit('messageAdded', { sessionId, message: record });
    return record;
  };

  /**
   * Kept as the room's status and relayed stamped with the server time it held at: the researcher's
   * own estimate of it (from the clock event) when plausible, which leaves out its upload delay.
   * What the player did since the previous status (play, pause, seek, rate) goes to the playback
   * log, stored before the status is acknowledged; the participants are told first, so the log
   * never holds up the sync.
   */
  readonly videoStatus: LiveHandler<'videoStatus'> = async (socket, status) => {
    await this.requireOwner(socket, status.sessionId);
    const { paused, currentTime, sessionId, playbackRate = 1 } = status;
    const now = Date.now();
    const at =
      status.at !== undefined && Math.abs(status.at - now) <= VIDEO_STATUS_MAX_SKEW_MS ? status.at : now;
    const next = { paused, currentTime, playbackRate, at };
    const { videoStatus: previous } = await this.rooms.read(sessionId);
    await this.rooms.update(sessionId, { videoStatus: next });
    socket.to(sessionRoom(sessionId)).emit('videoStatus', { ...next, sessionId });
    for (const event of playbackEvents(previous, next)) {
      await this.records.appendPlayback(socket.data.user, {
        sessionId,
        event,
        videoTime: currentTime,
        playbackRate,
        promptId: null,
      });
    }
    return null;
  };

  /** The server's time, for the clients' clock sync. */
  readonly clock: LiveHandler<'clock'> = () => Promise.resolve({ serverTime: Date.now() });

  /**
   * A prompt fires once per session run, however many researcher tabs reach it. The researcher's
   * player plays on until this answer and pauses on it, so its playback-log entry is not waited
   * for: it is stored before the pause's (SessionRecords keeps a session's entries in order), and a
   * failure to store it is logged.
   */
  readonly firePrompt: LiveHandler<'firePrompt'> = async (socket, { sessionId, promptId, videoTime }) => {
    await this.requireOwner(socket, sessionId);
    const fire = await this.rooms.markPromptFired(sessionId, promptId);
    if (!fire) return { fire };
    // Logged at the prompt's second as the player says, else where the room's status has it now.
    const { videoStatus } = await this.rooms.read(sessionId);
    const { user } = socket.data;
    const entry = {
      sessionId,
      event: 'prompt' as const,
      videoTime: videoTime ?? (videoStatus ? positionAt(videoStatus, Date.now()) : 0),
      playbackRate: videoStatus?.playbackRate ?? 1,
      promptId,
    };
    this.records.appendPlayback(user, entry).catch((error: unknown) => {
      this.logger.warn({ sessionId, promptId, err: String(error) }, 'prompt firing not logged');
    });
    return { fire };
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

  /** A participant's position and call state, for the monitor (kept, not relayed). */
  readonly presenceReport: LiveHandler<'presenceReport'> = async (socket, report) => {
    const { role } = await this.member(socket, report.sessionId);
    if (role === 'participant') this.presence.report(socket, report);
    return null;
  };

  /**
   * A participant's batch of exposure events (sound, tab, fullscreen, stalls), stored before it is
   * acknowledged: their client keeps a batch until then and sends it again otherwise (each event's
   * id makes that harmless). Refused once the session has ended, like every live event.
   */
  readonly exposureReport: LiveHandler<'exposure'> = async (socket, { sessionId, events }) => {
    const { user } = socket.data;
    const { role } = await this.member(socket, sessionId);
    if (role !== 'participant') throw forbidden(TEXTS.participantsReportExposure);
    await this.exposureLimits.consume(user.id, sessionId);
    return { stored: await this.exposure.report(user, sessionId, events) };
  };

  /** The researcher's monitor: who is connected, since when, in sync or not, muted, or gone. */
  readonly monitor: LiveHandler<'monitor'> = async (socket, { sessionId }) => {
    await this.requireOwner(socket, sessionId);
    const [{ videoStatus }, presence] = await Promise.all([
      this.rooms.read(sessionId),
      this.presenceStore.read(sessionId),
    ]);
    return monitorSnapshot(presence, videoStatus, Date.now());
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
    const { role } = writeAccess(await this.member(socket, sessionId));
    if (role !== 'participant') throw forbidden(TEXTS.participantsClick);
    const { allowClicks } = await this.rooms.read(sessionId);
    if (!allowClicks) throw forbidden(TEXTS.clicksOff);
    await this.writes.consume(user.id, sessionId);
    return this.records.appendPixel(user, { sessionId, x, y, color, videoTime: videoTime ?? null });
  };

  /**
   * The researcher ends the run and closes the session: studies stores it as ended first (a failure
   * there changes nothing), the playback log records it, the room state goes (no prompt fired,
   * clicks off, no status or peer id: a reopened session starts clean), and every replica tells its
   * sockets in the room with sessionEnded and takes them out. From then on nobody joins or writes
   * until the researcher reopens it. The sender gets the URL in its acknowledgement instead: its
   * client closes on sessionEnded, which would come before the acknowledgement and lose it.
   */
  readonly endSession: LiveHandler<'endSession'> = async (socket, { sessionId }) => {
    await this.requireOwner(socket, sessionId);
    const { videoStatus } = await this.rooms.read(sessionId);
    const { completionUrl } = await this.lifecycle(sessionId, 'end');
    await this.logLifecycle(socket, sessionId, 'end', videoStatus ? positionAt(videoStatus, Date.now()) : 0);
    await this.rooms.reset(sessionId);
    await this.accessWatch.ended(sessionId, completionUrl, socket);
    return { completionUrl };
  };

  /**
   * The researcher reopens an ended session (the playback log records it): everyone in its scope
   * may join again. Asked of the owner only, not of a member in the room (there is none).
   */
  readonly reopenSession: LiveHandler<'reopenSession'> = async (socket, { sessionId }) => {
    ownerAccess(await this.access.access(socket.data.user, sessionId));
    const { changed } = await this.lifecycle(sessionId, 'reopen');
    if (changed) {
      await this.logLifecycle(socket, sessionId, 'reopen', 0);
      await this.accessWatch.changed([sessionId], false);
    }
    return null;
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
   * The owner or a participant in scope (studies' answer, cached briefly) who has agreed to the
   * session's current consent text. Anyone else is refused, and a socket that was in the room
   * (removed from the scope since) leaves it, so it stops receiving the session's broadcasts. A
   * participant who must agree (again: the text changed) is also told with accessEnded, so their
   * page says why and sends them back to read it.
   */
  private async member(socket: LiveSocket, sessionId: string): Promise<SessionAccess> {
    try {
      return await this.access.requireInRoom(socket.data.user, sessionId);
    } catch (error) {
      if (error instanceof AppError && error.httpStatus < 500) {
        await Promise.all([socket.leave(sessionRoom(sessionId)), socket.leave(ownerRoom(sessionId))]);
        // After the refusal's acknowledgement: the client closes on accessEnded, and an
        // acknowledgement still due then is lost.
        if (error.code === ERROR_CODES.CONSENT_REQUIRED)
          setImmediate(() => socket.emit('accessEnded', { sessionId, message: error.message }));
      }
      throw error;
    }
  }

  private lifecycle(sessionId: string, change: SessionLifecycleChange) {
    return this.internal.call(internalRoutes.studiesSessionLifecycle, { sessionId, change });
  }

  /** The end and a reopening go to the playback log, in order with the player's entries. */
  private async logLifecycle(
    socket: LiveSocket,
    sessionId: string,
    event: 'end' | 'reopen',
    videoTime: number,
  ): Promise<void> {
    await this.records.appendPlayback(socket.data.user, {
      sessionId,
      event,
      videoTime,
      playbackRate: 1,
      promptId: null,
    });
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

/**
 * The status as it is now: a playing video has moved on since it was stored (at its rate), stamped
 * with now, so even a client that ignores `at` starts at the right place.
 */
export function statusNow(
  stored: StoredVideoStatus,
  sessionId: string,
  now = Date.now(),
): StampedVideoStatus {
  return {
    paused: stored.paused,
    currentTime: positionAt(stored, now),
    playbackRate: stored.playbackRate,
    at: Math.max(now, stored.at),
    sessionId,
  };
}
