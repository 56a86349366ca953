import { z } from 'zod';
import { ERROR_CODES, STATUS, type ErrorCode } from './envelope';
import {
  EXPOSURE_EVENTS_PER_BATCH,
  NAME_MAX_CHARS,
  PEER_ID_PATTERN,
  PLAYBACK_RATE_MAX,
  PLAYBACK_RATE_MIN,
  SESSION_STATES,
} from './constants';
import {
  VALIDATION_TEXTS,
  fraction,
  id,
  messageText,
  opaqueToken,
  pixelColor,
  senderName,
  videoTime,
} from './fields';
import { MessageRecord, PixelRecord } from './routes/records.routes';
import { ClientExposureEvent } from './routes/exposure.routes';

export * from './message-order';

/**
 * The live-session protocol on socket.io (spec section 7), event names and payloads as the spec
 * has them. The server validates every client payload with `clientEventSchemas` before it acts.
 * services/realtime/README.md tells who may send what and who receives it.
 */

/**
 * Answer to an emit that passed a callback. Same markers as the REST envelope; a refusal carries the
 * same `code` a REST answer would (VALIDATION, FORBIDDEN, RATE_LIMITED, UNAVAILABLE, ...).
 */
export type Ack<T> =
  | { status: typeof STATUS.SUCCESS; res: T }
  | { status: typeof STATUS.ERROR; res: { message: string; code: ErrorCode } };

export const ackOk = <T>(res: T): Ack<T> => ({ status: STATUS.SUCCESS, res });
export const ackError = (message: string, code: ErrorCode = ERROR_CODES.VALIDATION): Ack<never> => ({
  status: STATUS.ERROR,
  res: { message, code },
});

/** A zod schema for an Ack, for a client that wants to check what it got. */
export const ackSchema = <T extends z.ZodType>(res: T) =>
  z.discriminatedUnion('status', [
    z.object({ status: z.literal(STATUS.SUCCESS), res }),
    z.object({
      status: z.literal(STATUS.ERROR),
      res: z.object({ message: z.string(), code: z.enum(ERROR_CODES) }),
    }),
  ]);

const sessionId = () => id();

/** A peer id as PeerJS accepts it, not empty here: it is the id the researcher calls. */
export const peerId = () =>
  z
    .string({ error: 'must be text' })
    .min(1, VALIDATION_TEXTS.empty)
    .max(NAME_MAX_CHARS, `must be at most ${NAME_MAX_CHARS} characters`)
    .regex(
      PEER_ID_PATTERN,
      'must be letters and digits, optionally joined by single spaces, underscores or hyphens',
    );

// ---- Client to server -------------------------------------------------------------------------

/**
 * Join the session's room; the server answers with `participantClicksToggled`, (to a participant,
 * when the researcher has sent one) `videoStatus`, then `message` carrying the list: the newest
 * LIVE_MESSAGE_PAGE messages (older ones come with `history`).
 */
export const InitMessagePayload = z.object({ sessionId: sessionId() });
/**
 * A chat message. `name` is informative only: the server records the signed-in user's name. A
 * reaction ('{name} reacted with {action}') carries its action's id too (ours), so the data tell
 * reactions apart without parsing the text.
 */
export const ChatMessagePayload = z.object({
  message: messageText(),
  sessionId: sessionId(),
  name: senderName().optional(),
  actionId: id().optional(),
});
/**
 * The researcher's player state; participants follow it (seek, then play or pause). Ours, beside the
 * spec's fields: `playbackRate`, and `at`, the server's time (epoch ms, from the `clock` event) when
 * the video was at `currentTime`, so a participant can tell where it is now, whatever the delays.
 * The server keeps `at` when it is within VIDEO_STATUS_MAX_SKEW_MS of its own clock, else sets it.
 */
export const VideoStatus = z.object({
  paused: z.boolean({ error: 'must be true or false' }),
  currentTime: z.number({ error: 'must be a number of seconds' }).min(0, 'must not be negative'),
  sessionId: sessionId(),
  playbackRate: z
    .number({ error: 'must be a number' })
    .min(PLAYBACK_RATE_MIN, `must be at least ${PLAYBACK_RATE_MIN}`)
    .max(PLAYBACK_RATE_MAX, `must be at most ${PLAYBACK_RATE_MAX}`)
    .optional(),
  at: z.number({ error: 'must be a time in epoch milliseconds' }).int().positive().optional(),
});
/** What the server relays: always with the rate and its own time stamp. */
export const StampedVideoStatus = VideoStatus.required({ playbackRate: true, at: true });
export type StampedVideoStatus = z.infer<typeof StampedVideoStatus>;
/** A participant asks for the researcher's current video status (answered with `videoStatus`). */
export const SyncVideoStatusPayload = z.object({ sessionId: sessionId() });
export const ToggleParticipantClicksPayload = z.object({
  sessionId: sessionId(),
  allowClicks: z.boolean({ error: 'must be true or false' }),
});
/** A click on the video area: x and y are fractions 0 to 1 of it. `videoTime` is ours (optional). */
export const ClickVideoPayload = z.object({
  x: fraction(),
  y: fraction(),
  color: pixelColor(),
  sessionId: sessionId(),
  name: senderName().optional(),
  videoTime: videoTime().nullable().optional(),
});
/** Resync after a reconnect: answered as initMessage is (the list and the live state). */
export const SyncPayload = z.object({ sessionId: sessionId() });
/** Asks the server's time (answered in the acknowledgement): clients sync their clock with it. */
export const ClockPayload = z.object({}).strict();
/**
 * The researcher's player reached a prompt's second: answered `{ fire: true }` the first time for
 * this session's run only (the fired ids are kept in the room state), so a reload or a second tab of
 * the researcher does not fire it again.
 */
export const FirePromptPayload = z.object({
  sessionId: sessionId(),
  promptId: id(),
  /** Ours: the prompt's second, where the player fires it, for the playback log (else the room's estimate). */
  videoTime: videoTime().optional(),
});
/** How a participant's call connects: ICE still trying, connected, or unable to connect. */
export const CALL_LINK_STATES = ['connecting', 'connected', 'failed'] as const;
export type CallLinkState = (typeof CALL_LINK_STATES)[number];
/**
 * A participant's client, every PRESENCE_REPORT_MS: where its player is (`at`: the server time it was
 * there, from the clock event) and, in a call, whether it is connected and muted. For the monitor.
 */
export const PresenceReportPayload = z.object({
  sessionId: sessionId(),
  playback: z
    .object({
      currentTime: videoTime(),
      paused: z.boolean({ error: 'must be true or false' }),
      at: z.number({ error: 'must be a time in epoch milliseconds' }).int().positive(),
    })
    .optional(),
  call: z
    .object({
      connected: z.boolean({ error: 'must be true or false' }),
      muted: z.boolean({ error: 'must be true or false' }),
      /** Ours: how the call's media path stands; `failed`: it cannot connect from their network. */
      state: z.enum(CALL_LINK_STATES, { error: `must be ${CALL_LINK_STATES.join(', ')}` }).optional(),
    })
    .optional(),
  /** Ours: whether the session's video plays with its sound off (absent from a client without a player). */
  sound: z.object({ muted: z.boolean({ error: 'must be true or false' }) }).optional(),
  /** Ours: whether the page is visible (false: its tab is hidden or the window minimised). */
  visible: z.boolean({ error: 'must be true or false' }).optional(),
});
/**
 * Ours: a participant's client reports what they were exposed to (sound off and on, the tab hidden
 * and shown, fullscreen, the video stalling), a batch at a time, each event with its own id: a
 * batch sent again after a lost acknowledgement is stored once. Answered once stored, with how many
 * of the batch were new. Participants only, in a session that has not ended.
 */
export const ExposurePayload = z.object({
  sessionId: sessionId(),
  events: z
    .array(ClientExposureEvent, { error: 'must be a list of events' })
    .min(1, 'must hold at least one event')
    .max(EXPOSURE_EVENTS_PER_BATCH, `must hold at most ${EXPOSURE_EVENTS_PER_BATCH} events`),
});
/** The researcher asks who is in the session now (answered in the acknowledgement: a MonitorSnapshot). */
export const MonitorPayload = z.object({ sessionId: sessionId() });

/** Older messages than `before` (a message id of the list), newest LIVE_MESSAGE_PAGE of them. */
export const HistoryPayload = z.object({ sessionId: sessionId(), before: id() });
/**
 * A renewed access token for this connection (the client refreshed it over REST): it must be the
 * same user's. Without one, the connection ends when the token it was opened with expires.
 */
export const RenewTokenPayload = z.object({ token: opaqueToken() });
/**
 * A peer id for the chat call. The researcher's is kept for the session and sent to the
 * participants, who call it (spec section 4: participants call in); a participant's goes to the
 * researcher.
 */
export const JoinVideoChatPayload = z.object({ userId: peerId(), sessionId: sessionId() });
/**
 * From a participant: "who do I call?" (answered with the researcher's `joinVideoChat`). From the
 * researcher: asks the participants to announce themselves and call again.
 */
export const SyncVideoChatPayload = z.object({ sessionId: sessionId() });

/**
 * Ours: the researcher ends the session's live run. The room state is reset (fired
 * prompts, clicks, video status, the researcher's peer id), so the next run starts clean, and the
 * rest of the room hears `sessionEnded` (the sender's acknowledgement carries its completionUrl).
 */
export const EndSessionPayload = z.object({ sessionId: sessionId() });
/**
 * Ours: the researcher reopens a session that has ended (the playback log records it); its
 * participants may join again. Answered with null; the researcher then joins as usual.
 */
export const ReopenSessionPayload = z.object({ sessionId: sessionId() });

/** Every client event, with the schema the server validates its payload against. */
export const clientEventSchemas = {
  initMessage: InitMessagePayload,
  message: ChatMessagePayload,
  videoStatus: VideoStatus,
  syncVideoStatus: SyncVideoStatusPayload,
  toggleParticipantClicks: ToggleParticipantClicksPayload,
  clickVideo: ClickVideoPayload,
  sync: SyncPayload,
  joinVideoChat: JoinVideoChatPayload,
  syncVideoChat: SyncVideoChatPayload,
  history: HistoryPayload,
  renewToken: RenewTokenPayload,
  clock: ClockPayload,
  firePrompt: FirePromptPayload,
  presenceReport: PresenceReportPayload,
  monitor: MonitorPayload,
  endSession: EndSessionPayload,
  reopenSession: ReopenSessionPayload,
  exposure: ExposurePayload,
} as const;
export type ClientEventName = keyof typeof clientEventSchemas;
export const CLIENT_EVENT_NAMES = Object.keys(clientEventSchemas) as ClientEventName[];

export type ClientPayloadOf<E extends ClientEventName> = z.input<(typeof clientEventSchemas)[E]>;
export type ParsedClientPayloadOf<E extends ClientEventName> = z.output<(typeof clientEventSchemas)[E]>;

/** One participant as the researcher's monitor shows them. Times are server epoch milliseconds. */
export const MonitoredParticipant = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  /** Connected now (at least one live connection in the session). */
  connected: z.boolean(),
  /** Since when the current connection is open (the oldest, with several tabs); null when left. */
  since: z.number().nullable(),
  /** When they first joined the session in this run. */
  firstJoined: z.number(),
  /** How many times they joined again after the first (reconnects, reloads, another tab). */
  reconnects: z.number().int(),
  /** When their last connection ended, when they have left; else null. */
  leftAt: z.number().nullable(),
  /** Their player's last report, and how far it was from the researcher's, in ms (+ ahead, - behind). */
  playback: z
    .object({ currentTime: z.number(), paused: z.boolean(), driftMs: z.number().nullable(), at: z.number() })
    .nullable(),
  /** In a call: connected to the researcher, muted, and how it connects. Null before their client said. */
  call: z
    .object({ connected: z.boolean(), muted: z.boolean(), state: z.enum(CALL_LINK_STATES).optional() })
    .nullable(),
  /** The session's video plays muted on their page, or not; null before their client said (or without a player). */
  sound: z.object({ muted: z.boolean() }).nullable(),
  /** Their page is visible (false: the tab is hidden); null before their client said. */
  visible: z.boolean().nullable(),
});
export type MonitoredParticipant = z.infer<typeof MonitoredParticipant>;

/** The monitor's answer: the participants, connected first, then those who left (latest first). */
export const MonitorSnapshot = z.object({
  serverTime: z.number(),
  participants: z.array(MonitoredParticipant),
});
export type MonitorSnapshot = z.infer<typeof MonitorSnapshot>;

/** A page of older messages: oldest first; `hasMore` when there are older ones still. */
export interface MessagePage {
  messages: MessageRecord[];
  hasMore: boolean;
}

/**
 * What each client event's acknowledgement carries when the client passes a callback. Writes
 * (message, clickVideo) answer the stored record once it is in the database; the others answer null.
 */
export interface ClientEventAcks {
  initMessage: MessageRecord[];
  message: MessageRecord;
  videoStatus: null;
  syncVideoStatus: null;
  toggleParticipantClicks: null;
  clickVideo: PixelRecord;
  sync: MessageRecord[];
  joinVideoChat: null;
  syncVideoChat: null;
  history: MessagePage;
  renewToken: null;
  /** The server's time, epoch milliseconds. */
  clock: { serverTime: number };
  firePrompt: { fire: boolean };
  presenceReport: null;
  monitor: MonitorSnapshot;
  /** What the room heard in `sessionEnded` (the sender itself gets it here, not as the event). */
  endSession: { completionUrl: string | null };
  reopenSession: null;
  /** How many events of the batch were stored now (the others were stored before: sent twice). */
  exposure: { stored: number };
}

/** How many messages `message` (on initMessage and sync) and each `history` page carry. */
export { LIVE_MESSAGE_PAGE } from './constants';

export type ClientToServerEvents = {
  [E in ClientEventName]: (
    payload: ClientPayloadOf<E>,
    ack?: (answer: Ack<ClientEventAcks[E]>) => void,
  ) => void;
};

// ---- Server to client -------------------------------------------------------------------------

/**
 * `message`: the newest LIVE_MESSAGE_PAGE messages, in `compareMessages` order (on initMessage and
 * sync; older ones come with `history`), or the error
 * marker (spec: the client then shows 'Error fetching chat messages').
 */
export const MessageListEvent = ackSchema(z.array(MessageRecord));
export type MessageListEvent = Ack<MessageRecord[]>;

/**
 * One new message for the room, so a message costs the same however long the session is. A client
 * puts it in its place with `mergeMessage` (it may arrive twice: after a resync, or re-announced
 * when its author rejoins).
 */
export const MessageAddedEvent = z.object({ sessionId: z.uuid(), message: MessageRecord });
export type MessageAddedEvent = z.infer<typeof MessageAddedEvent>;

export const ParticipantClicksToggledEvent = z.object({ sessionId: z.uuid(), allowClicks: z.boolean() });
export type ParticipantClicksToggledEvent = z.infer<typeof ParticipantClicksToggledEvent>;

/**
 * The server ends the connection right after this: its access token expired without a renewal
 * (UNAUTHENTICATED: refresh the token and connect again) or its login was revoked (REVOKED: signed
 * out, or the account is gone; sign in again).
 */
export const ConnectionEndedEvent = z.object({
  code: z.enum([ERROR_CODES.UNAUTHENTICATED, ERROR_CODES.REVOKED]),
  message: z.string(),
});
export type ConnectionEndedEvent = z.infer<typeof ConnectionEndedEvent>;

/**
 * The socket left the session's room: the researcher removed this user from its scope, or deleted
 * the session. Nothing of the session reaches it any more.
 */
export const AccessEndedEvent = z.object({ sessionId: z.uuid(), message: z.string() });
export type AccessEndedEvent = z.infer<typeof AccessEndedEvent>;

/**
 * The researcher ended the session: the client stops (no reconnects); a participant is sent to
 * `completionUrl` (the session's, set in the editor) when there is one.
 */
export const SessionEndedEvent = z.object({ sessionId: z.uuid(), completionUrl: z.string().nullable() });
export type SessionEndedEvent = z.infer<typeof SessionEndedEvent>;

/**
 * Ours: where the session is in its life, sent to a member when it joins and whenever that changes
 * while it is in the room (a participant on a session not started yet waits, and goes in when the
 * researcher opens it). Its end comes as sessionEnded.
 */
export const SessionStateEvent = z.object({ sessionId: z.uuid(), state: z.enum(SESSION_STATES) });
export type SessionStateEvent = z.infer<typeof SessionStateEvent>;

export const serverEventSchemas = {
  message: MessageListEvent,
  messageAdded: MessageAddedEvent,
  videoStatus: StampedVideoStatus,
  /**
   * To the researcher, when a participant asks and no status is known yet (the server answers from
   * the last one otherwise): answer with videoStatus.
   */
  syncVideoStatus: SyncVideoStatusPayload,
  participantClicksToggled: ParticipantClicksToggledEvent,
  /** To the participants: the researcher's peer id, call it. To the researcher: a participant's. */
  joinVideoChat: JoinVideoChatPayload,
  /**
   * To the participants: the researcher (reconnected) asks them to announce themselves and call
   * again. To the researcher: a participant asks for its peer id and none is known yet.
   */
  syncVideoChat: SyncVideoChatPayload,
  connectionEnded: ConnectionEndedEvent,
  accessEnded: AccessEndedEvent,
  sessionEnded: SessionEndedEvent,
  sessionState: SessionStateEvent,
} as const;
export type ServerEventName = keyof typeof serverEventSchemas;
export const SERVER_EVENT_NAMES = Object.keys(serverEventSchemas) as ServerEventName[];

export type ServerPayloadOf<E extends ServerEventName> = z.output<(typeof serverEventSchemas)[E]>;

export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerPayloadOf<E>) => void;
};
