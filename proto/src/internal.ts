import { z } from 'zod';
import { NAME_MAX_CHARS, SESSION_TYPES } from './constants';
import { Message, VALIDATION_TEXTS, email, id, requiredText } from './fields';
import type { HttpMethod } from './route';
import { Prompt } from './routes/content.routes';
import {
  MessageRecord,
  PixelRecord,
  fraction,
  messageText,
  pixelColor,
  videoTime,
} from './routes/records.routes';
import type { RestServiceName } from './services';

/**
 * Service-to-service calls. The gateway never routes `/internal/...`; a caller proves it is one of
 * ours with the shared service token in SERVICE_TOKEN_HEADER. No `access`: these act for the system,
 * and the caller has already checked the user.
 */
export const INTERNAL_PATH_PREFIX = '/internal/';
export const SERVICE_TOKEN_HEADER = 'x-service-token';

export interface InternalRouteDef<Req extends z.ZodType = z.ZodType, Ans extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Always `/internal/<service>/...`. */
  path: string;
  service: RestServiceName;
  /** Query string for GET, JSON body for POST. */
  request: Req;
  /** The `res` of a SUCCESS answer. */
  answer: Ans;
  summary: string;
}

export const defineInternalRoutes = <T extends Record<string, InternalRouteDef>>(routes: T): T => routes;

/** Path of a service's account-deletion endpoint. */
export const userDataDeletePath = (service: RestServiceName) =>
  `/internal/${service}/user-data/delete` as const;
/** Path of a service's session-deletion endpoint. */
export const sessionDataDeletePath = (service: RestServiceName) =>
  `/internal/${service}/session-data/delete` as const;

export const SESSION_ROLES = ['owner', 'participant', 'none'] as const;
export type SessionRole = (typeof SESSION_ROLES)[number];

export const SessionAccess = z.object({
  role: z.enum(SESSION_ROLES),
  /** null when the session does not exist (then role is 'none'): callers answer 404, not 403. */
  sessionType: z.enum(SESSION_TYPES).nullable(),
});
export type SessionAccess = z.infer<typeof SessionAccess>;

const UserDataDeleteRequest = z.object({ userId: id(), email: email() });
const userDataDeleteSummary = (what: string) =>
  `Account deletion: removes ${what}. Idempotent: a second call finds nothing and succeeds.`;

/** The most session ids one session-data delete call carries (callers send larger sets in batches). */
export const SESSION_IDS_PER_DELETE = 1000;
const SessionDataDeleteRequest = z.object({ sessionIds: z.array(id()).min(1).max(SESSION_IDS_PER_DELETE) });
const sessionDataDeleteSummary = (what: string) =>
  `Session deletion (a session, or every session of a group): removes ${what} of those sessions. Idempotent.`;

/** Who the realtime server acts for when it appends a record. */
const Author = { userId: id(), email: email(), name: requiredText(VALIDATION_TEXTS.empty, NAME_MAX_CHARS) };

export const internalRoutes = defineInternalRoutes({
  studiesAccess: {
    method: 'GET',
    path: '/internal/studies/access',
    service: 'studies',
    summary:
      "What a user may do in a session: 'owner' (the researcher whose group holds it), 'participant' (its scope holds the e-mail or is Everyone) or 'none'; with the session's type. Hot in realtime, so callers cache it briefly.",
    request: z.object({ sessionId: id(), userId: id(), email: email() }),
    answer: SessionAccess,
  },
  studiesUserDataDelete: {
    method: 'POST',
    path: userDataDeletePath('studies'),
    service: 'studies',
    summary: userDataDeleteSummary(
      "the user's groups and their sessions (with their data in content and records) and the user's e-mail from every scope",
    ),
    request: UserDataDeleteRequest,
    answer: Message,
  },
  recordsUserDataDelete: {
    method: 'POST',
    path: userDataDeletePath('records'),
    service: 'records',
    summary: userDataDeleteSummary("the user's messages and clicks"),
    request: UserDataDeleteRequest,
    answer: Message,
  },
  contentSessionDataDelete: {
    method: 'POST',
    path: sessionDataDeletePath('content'),
    service: 'content',
    summary: sessionDataDeleteSummary('the actions, prompts and video'),
    request: SessionDataDeleteRequest,
    answer: Message,
  },
  recordsSessionDataDelete: {
    method: 'POST',
    path: sessionDataDeletePath('records'),
    service: 'records',
    summary: sessionDataDeleteSummary('the messages and clicks'),
    request: SessionDataDeleteRequest,
    answer: Message,
  },
  contentVideoDelete: {
    method: 'POST',
    path: '/internal/content/video/delete',
    service: 'content',
    summary:
      "Removes a session's uploaded video (object and record): studies calls it when a session's type changes away from video. Idempotent.",
    request: z.object({ sessionId: id() }),
    answer: Message,
  },
  contentListPrompts: {
    method: 'GET',
    path: '/internal/content/prompts',
    service: 'content',
    summary: "A session's prompts by time, for records' export (kind=prompts).",
    request: z.object({ sessionId: id() }),
    answer: z.object({ prompts: z.array(Prompt) }),
  },
  recordsListMessages: {
    method: 'GET',
    path: '/internal/records/messages',
    service: 'records',
    summary: "A session's chat messages, oldest first: the full list realtime sends on initMessage and sync.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ messages: z.array(MessageRecord) }),
  },
  recordsAppendMessage: {
    method: 'POST',
    path: '/internal/records/messages',
    service: 'records',
    summary:
      "Realtime appends a chat message before it broadcasts or acknowledges it, so what a client saw acknowledged is never lost. `name` is the signed-in user's name as realtime knows it.",
    request: z.object({ sessionId: id(), ...Author, message: messageText() }),
    answer: z.object({ message: MessageRecord }),
  },
  recordsAppendPixel: {
    method: 'POST',
    path: '/internal/records/pixels',
    service: 'records',
    summary:
      'Realtime appends a click (only while the researcher allows clicks) before it acknowledges it. x and y are fractions 0 to 1.',
    request: z.object({
      sessionId: id(),
      ...Author,
      x: fraction(),
      y: fraction(),
      color: pixelColor(),
      videoTime: videoTime().nullable().default(null),
    }),
    answer: z.object({ pixel: PixelRecord }),
  },
});

export type InternalRoutes = typeof internalRoutes;
export type InternalRouteName = keyof InternalRoutes;
export type InternalRouteListEntry = InternalRouteDef & { name: InternalRouteName };

export const internalRouteList: readonly InternalRouteListEntry[] = (
  Object.keys(internalRoutes) as InternalRouteName[]
).map((name): InternalRouteListEntry => ({ name, ...internalRoutes[name] }));

export type InternalRequestOf<N extends InternalRouteName> = z.input<InternalRoutes[N]['request']>;
export type ParsedInternalRequestOf<N extends InternalRouteName> = z.output<InternalRoutes[N]['request']>;
export type InternalAnswerOf<N extends InternalRouteName> = z.output<InternalRoutes[N]['answer']>;

/**
 * The services auth calls (userDataDeletePath) before it deletes an account; each must answer
 * SUCCESS first. Studies removes the user's groups (and through them their sessions' data) and
 * their e-mail from scopes; records erases what the user wrote or clicked anywhere.
 */
export const USER_DATA_OWNERS: UserDataOwner[] = ['studies', 'records'];

/** A service that may hold data of a user (auth itself deletes the account last). */
export type UserDataOwner = Extract<RestServiceName, 'studies' | 'records'>;

/** The account-deletion endpoint of each service that may hold a user's data. */
export const userDataDeleteRoute = (owner: UserDataOwner) =>
  ({
    studies: internalRoutes.studiesUserDataDelete,
    records: internalRoutes.recordsUserDataDelete,
  })[owner];

/** A service that holds data of sessions (studies itself deletes the sessions last). */
export type SessionDataOwner = Extract<RestServiceName, 'content' | 'records'>;

/** The services studies calls before it deletes a session or a group. */
export const SESSION_DATA_OWNERS: SessionDataOwner[] = ['content', 'records'];

/** The session-data delete endpoint of each service that holds data of sessions. */
export const sessionDataDeleteRoute = (owner: SessionDataOwner) =>
  ({
    content: internalRoutes.contentSessionDataDelete,
    records: internalRoutes.recordsSessionDataDelete,
  })[owner];
