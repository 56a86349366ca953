import { z } from 'zod';
import { STATUS } from './envelope';
import { NAME_MAX_CHARS, PEER_ID_PATTERN } from './constants';
import { VALIDATION_TEXTS, id } from './fields';
import {
  MessageRecord,
  PixelRecord,
  fraction,
  messageText,
  pixelColor,
  senderName,
  videoTime,
} from './routes/records.routes';

export * from './message-order';

/**
 * The live-session protocol on socket.io (spec section 7), event names and payloads as the spec
 * has them. The server validates every client payload with `clientEventSchemas` before it acts.
 * services/realtime/README.md tells who may send what and who receives it.
 */

/** Answer to an emit that passed a callback. Same markers as the REST envelope. */
export type Ack<T> =
  { status: typeof STATUS.SUCCESS; res: T } | { status: typeof STATUS.ERROR; res: { message: string } };

export const ackOk = <T>(res: T): Ack<T> => ({ status: STATUS.SUCCESS, res });
export const ackError = (message: string): Ack<never> => ({ status: STATUS.ERROR, res: { message } });

/** A zod schema for an Ack, for a client that wants to check what it got. */
export const ackSchema = <T extends z.ZodType>(res: T) =>
  z.discriminatedUnion('status', [
    z.object({ status: z.literal(STATUS.SUCCESS), res }),
    z.object({ status: z.literal(STATUS.ERROR), res: z.object({ message: z.string() }) }),
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
 * Join the session's room; the server answers with `message` carrying the full list, then
 * `participantClicksToggled` and (to a participant, when the researcher has sent one) `videoStatus`.
 */
export const InitMessagePayload = z.object({ sessionId: sessionId() });
/** A chat message. `name` is informative only: the server records the signed-in user's name. */
export const ChatMessagePayload = z.object({
  message: messageText(),
  sessionId: sessionId(),
  name: senderName().optional(),
});
/** The researcher's player state; participants follow it (seek, then play or pause). */
export const VideoStatus = z.object({
  paused: z.boolean({ error: 'must be true or false' }),
  currentTime: z.number({ error: 'must be a number of seconds' }).min(0, 'must not be negative'),
  sessionId: sessionId(),
});
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
/** Resync after a reconnect: answered as initMessage is (the full list and the live state). */
export const SyncPayload = z.object({ sessionId: sessionId() });
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
} as const;
export type ClientEventName = keyof typeof clientEventSchemas;
export const CLIENT_EVENT_NAMES = Object.keys(clientEventSchemas) as ClientEventName[];

export type ClientPayloadOf<E extends ClientEventName> = z.input<(typeof clientEventSchemas)[E]>;
export type ParsedClientPayloadOf<E extends ClientEventName> = z.output<(typeof clientEventSchemas)[E]>;

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
}

export type ClientToServerEvents = {
  [E in ClientEventName]: (
    payload: ClientPayloadOf<E>,
    ack?: (answer: Ack<ClientEventAcks[E]>) => void,
  ) => void;
};

// ---- Server to client -------------------------------------------------------------------------

/**
 * `message`: the full list, in `compareMessages` order (on initMessage and sync), or the error
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

export const serverEventSchemas = {
  message: MessageListEvent,
  messageAdded: MessageAddedEvent,
  videoStatus: VideoStatus,
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
} as const;
export type ServerEventName = keyof typeof serverEventSchemas;
export const SERVER_EVENT_NAMES = Object.keys(serverEventSchemas) as ServerEventName[];

export type ServerPayloadOf<E extends ServerEventName> = z.output<(typeof serverEventSchemas)[E]>;

export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerPayloadOf<E>) => void;
};
