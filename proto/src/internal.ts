import { z } from 'zod';
import {
  INVITATIONS_PER_ADDRESS_PER_HOUR,
  INVITATIONS_PER_SESSION_PER_HOUR,
  INVITATION_TTL_HOURS,
  NAME_MAX_CHARS,
  PLAYBACK_EVENTS,
  SESSION_STATES,
  TITLE_MAX_CHARS,
} from './constants';
import {
  Message,
  VALIDATION_TEXTS,
  email,
  fraction,
  id,
  opaqueToken,
  pixelColor,
  requiredText,
  videoTime,
} from './fields';
import type { HttpMethod } from './route';
import { ConsentAcceptance, ConsentVersion, Withdrawal } from './routes/consent.routes';
import { Action, Prompt } from './routes/content.routes';
import { MessageRecord, PixelRecord, PlaybackRecord } from './routes/records.routes';
import type { RestServiceName, ServiceName } from './services';
import {
  ACCESS_CHECKS_PER_CALL,
  AccessCheck,
  AppendedExposure,
  AppendedMessage,
  Author,
  batchOf,
  EXPOSURE_PER_APPEND,
  GroupSessions,
  MessagePageAnswer,
  MESSAGES_PER_APPEND,
  pageLimit,
  RESEARCHER_PEOPLE_MAX,
  RosterEntry,
  SESSION_IDS_PER_DELETE,
  SESSION_LIFECYCLE_CHANGES,
  SessionAccess,
  SessionAccessChangedRequest,
  sessionAccessChangedSummary,
  SessionDataDeleteRequest,
  sessionDataDeleteSummary,
  SESSIONS_PER_LATEST_READ,
  SessionSettings,
  UserDataDeleteRequest,
  userDataDeleteSummary,
} from './internal-schemas';

export {
  ACCESS_CHECKS_PER_CALL,
  AccessCheck,
  AppendedExposure,
  AppendedMessage,
  EXPOSURE_PER_APPEND,
  GroupSessions,
  MESSAGE_PAGE_MAX,
  MESSAGES_PER_APPEND,
  RESEARCHER_PEOPLE_MAX,
  RosterEntry,
  SESSION_IDS_PER_DELETE,
  SESSION_LIFECYCLE_CHANGES,
  SESSION_ROLES,
  SessionAccess,
  SESSIONS_PER_LATEST_READ,
  SessionSettings,
} from './internal-schemas';
export type { SessionLifecycleChange, SessionRole } from './internal-schemas';
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
  service: ServiceName;
  /** Query string for GET, JSON body for POST. */
  request: Req;
  /** The `res` of a SUCCESS answer. */
  answer: Ans;
  summary: string;
  /**
   * Called once per live event (or per group of them): the callee logs its request line at debug,
   * not info, unless it failed or was slow, so the log is not the bulk of the work.
   */
  hot?: boolean;
}

export const defineInternalRoutes = <T extends Record<string, InternalRouteDef>>(routes: T): T => routes;

/** Path of a service's account-deletion endpoint. */
export const userDataDeletePath = (service: RestServiceName) =>
  `/internal/${service}/user-data/delete` as const;
/** Path of a service's session-deletion endpoint. */
export const sessionDataDeletePath = (service: RestServiceName) =>
  `/internal/${service}/session-data/delete` as const;

export const internalRoutes = defineInternalRoutes({
  realtimeSessionAccessChanged: {
    method: 'POST',
    path: '/internal/realtime/session-access/changed',
    service: 'realtime',
    summary: sessionAccessChangedSummary(
      "every replica checks its sockets in those sessions' rooms again; a socket no longer allowed (or of a deleted session) leaves the room and is told with accessEnded",
    ),
    request: SessionAccessChangedRequest,
    answer: Message,
  },
  signalSessionAccessChanged: {
    method: 'POST',
    path: '/internal/signal/session-access/changed',
    service: 'signal',
    summary: sessionAccessChangedSummary(
      'peers registered in those sessions are checked again, and those no longer allowed (or in a session that is no longer a chat, or gone) are disconnected',
    ),
    request: SessionAccessChangedRequest,
    answer: Message,
  },
  studiesAccess: {
    method: 'GET',
    path: '/internal/studies/access',
    service: 'studies',
    summary:
      "What a user may do in a session: 'owner' (the researcher whose group holds it), 'participant' (its scope holds the e-mail or is Everyone) or 'none'; with the session's type. Hot in realtime, so callers cache it briefly.",
    request: AccessCheck,
    answer: SessionAccess,
  },
  studiesAccessBatch: {
    method: 'POST',
    path: '/internal/studies/access/batch',
    service: 'studies',
    summary: `Realtime's batched access checks: the checks that missed its cache while its previous call was in flight (1 to ${ACCESS_CHECKS_PER_CALL}), each judged as studiesAccess judges one, all read by one query. Answers one access per check, in the order of the items; one bad item refuses the call (400).`,
    request: z.object({
      items: batchOf(AccessCheck, ACCESS_CHECKS_PER_CALL, 'check', 'checks', 'access checks'),
    }),
    answer: z.object({ access: z.array(SessionAccess) }),
    hot: true,
  },
  studiesJoinLinkOwner: {
    method: 'GET',
    path: '/internal/studies/join-link-owner',
    service: 'studies',
    summary:
      "Auth's enterThroughLink asks before it signs anyone in: the link's session, its researcher (a panel id names one participant per researcher) and the session's state. 404 for an unknown or revoked token.",
    request: z.object({ token: opaqueToken() }),
    answer: z.object({ sessionId: z.uuid(), ownerId: z.uuid(), state: z.enum(SESSION_STATES) }),
  },
  studiesSessionLifecycle: {
    method: 'POST',
    path: '/internal/studies/session-lifecycle',
    service: 'studies',
    summary:
      "Realtime moves a session through its life after it checked the owner: 'start' makes a not-started session live (the researcher opened its live page; anything else is left as it is), 'end' closes it, 'reopen' makes an ended session live again. Answers the state after the change, whether it changed, and the session's completionUrl (where participants go when it ends). 404 for no such session.",
    request: z.object({ sessionId: id(), change: z.enum(SESSION_LIFECYCLE_CHANGES) }),
    answer: z.object({
      state: z.enum(SESSION_STATES),
      changed: z.boolean(),
      completionUrl: z.string().nullable(),
    }),
  },
  studiesSessionRoster: {
    method: 'GET',
    path: '/internal/studies/session-roster',
    service: 'studies',
    summary:
      "A session's participants as studies knows them (records' study export): everyone its scope names or who joined by its link, with how they came, when they were invited and joined, and their recruitment-panel ids. Empty for an unknown session.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ people: z.array(RosterEntry) }),
  },
  authSendInvitation: {
    method: 'POST',
    path: '/internal/auth/invitations',
    service: 'auth',
    summary: `Studies asks auth to mail an invitation to a session (the researcher added the address to its scope, or asked to re-send): a sign-in link valid ${INVITATION_TTL_HOURS / 24} days, once, that opens the session after signing in or up; the mail goes through the mail queue like a magic link. Refused (429) past ${INVITATIONS_PER_ADDRESS_PER_HOUR} mails per address and session, or ${INVITATIONS_PER_SESSION_PER_HOUR} per session, in an hour.`,
    request: z.object({
      sessionId: id(),
      email: email(),
      sessionTitle: z.string().max(TITLE_MAX_CHARS),
      researcherName: requiredText(VALIDATION_TEXTS.empty, NAME_MAX_CHARS),
    }),
    answer: Message,
  },
  studiesGroupSessions: {
    method: 'GET',
    path: '/internal/studies/group-sessions',
    service: 'studies',
    summary:
      "A group's sessions, oldest first, and whether the user owns the group: records' study export of a group. `exists` is false for an unknown group (callers answer 404), `owner` false for another researcher's group (403); `sessionIds` is empty unless `owner`.",
    request: z.object({ groupId: id(), userId: id() }),
    answer: GroupSessions,
  },
  studiesResearcherPeople: {
    method: 'GET',
    path: '/internal/studies/researcher-people',
    service: 'studies',
    summary: `The e-mails a researcher's sessions name in their scopes or list as joined (by link or invitation), at most ${RESEARCHER_PEOPLE_MAX}: whom auth's participant directory shows that researcher.`,
    request: z.object({ userId: id() }),
    answer: z.object({ emails: z.array(z.string()).max(RESEARCHER_PEOPLE_MAX) }),
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
  contentListActions: {
    method: 'GET',
    path: '/internal/content/actions',
    service: 'content',
    summary: "A session's actions (reaction icons) as they are now, for records' exports (actions.csv).",
    request: z.object({ sessionId: id() }),
    answer: z.object({ actions: z.array(Action) }),
  },
  contentSessionVideo: {
    method: 'GET',
    path: '/internal/content/video',
    service: 'content',
    summary:
      "The file name of a session's uploaded video, or null when it has none, for records' exports (sessions.csv).",
    request: z.object({ sessionId: id() }),
    answer: z.object({ name: z.string().nullable() }),
  },
  studiesSessionSettings: {
    method: 'GET',
    path: '/internal/studies/session-settings',
    service: 'studies',
    summary:
      "A session's settings as they are now, with its group's title, for records' exports (sessions.csv): null for an unknown session. The scope as its kind and size only (the e-mails are not the export's business).",
    request: z.object({ sessionId: id() }),
    answer: z.object({ session: SessionSettings.nullable() }),
  },
  recordsListMessages: {
    method: 'GET',
    path: '/internal/records/messages',
    service: 'records',
    summary:
      "A page of a session's chat messages, oldest first: the newest `limit` of them, or the newest `limit` stored before the message `before`. Realtime sends it on initMessage and sync, and answers `history` with it. `hasMore`: older ones remain. An unknown `before` is a 404.",
    request: z.object({
      sessionId: id(),
      before: id().optional(),
      limit: pageLimit(() => z.coerce.number({ error: 'must be a number' })),
    }),
    answer: MessagePageAnswer,
    hot: true,
  },
  recordsLatestMessages: {
    method: 'POST',
    path: '/internal/records/messages/latest',
    service: 'records',
    summary: `Realtime's grouped join reads: the newest \`limit\` messages of each session (1 to ${SESSIONS_PER_LATEST_READ} ids; a repeated id is answered each time), read by one statement. Answers one page per id, in the order of the ids, each exactly as recordsListMessages answers it without \`before\`: oldest first, \`hasMore\` when older ones remain; an unknown session's page is empty.`,
    request: z.object({
      sessionIds: batchOf(id(), SESSIONS_PER_LATEST_READ, 'session id'),
      // A JSON body: a number already, so no coercion (recordsListMessages' comes as query text).
      limit: pageLimit(() => z.number({ error: 'must be a number' })),
    }),
    answer: z.object({ pages: z.array(MessagePageAnswer.extend({ sessionId: id() })) }),
    hot: true,
  },
  recordsAppendMessages: {
    method: 'POST',
    path: '/internal/records/messages/batch',
    service: 'records',
    summary: `Realtime's group commit: the chat messages that arrived while its previous append was in flight (1 to ${MESSAGES_PER_APPEND}), stored by one INSERT before any of them is broadcast or acknowledged. Each item is checked on its own (the author is the one realtime checked: name is the signed-in user's name); one bad item refuses the call (400) and stores nothing. Answers the stored messages in the order of the items.`,
    request: z.object({
      items: batchOf(AppendedMessage, MESSAGES_PER_APPEND, 'message'),
    }),
    answer: z.object({ messages: z.array(MessageRecord) }),
    hot: true,
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
    hot: true,
  },
  recordsWithdrawParticipant: {
    method: 'POST',
    path: '/internal/records/withdrawals',
    service: 'records',
    summary:
      "Studies' withdrawFromSession, after it checked the participant: deletes the participant's messages (reactions included) and clicks in that session only, and the audit entries about them, and logs the withdrawal with the counts, all in one transaction. A retry that finds nothing left to delete, after a withdrawal already logged, answers that withdrawal and logs no second one.",
    request: z.object({ sessionId: id(), ...Author }),
    answer: z.object({ withdrawal: Withdrawal }),
  },
  studiesConsentExport: {
    method: 'POST',
    path: '/internal/studies/consent/export',
    service: 'studies',
    summary: `Records' study export: every version of the consent texts of these sessions (1 to ${SESSION_IDS_PER_DELETE}), and every agreement to them, each in its session's order (versions by number, agreements by time). Unknown sessions have none.`,
    request: z.object({ sessionIds: batchOf(id(), SESSION_IDS_PER_DELETE, 'session id') }),
    answer: z.object({
      texts: z.array(ConsentVersion.extend({ sessionId: z.uuid() })),
      acceptances: z.array(ConsentAcceptance.extend({ sessionId: z.uuid() })),
    }),
  },
  recordsAppendPlayback: {
    method: 'POST',
    path: '/internal/records/playback',
    service: 'records',
    summary:
      "Realtime appends an entry of a session's playback log (the researcher's play, pause, seek, rate change or a prompt firing), one at a time per session: a status's entries before it acknowledges the status, a prompt's firing after it answers it (the player pauses on that answer).",
    request: z.object({
      sessionId: id(),
      ...Author,
      event: z.enum(PLAYBACK_EVENTS),
      videoTime: videoTime(),
      playbackRate: z.number().positive('must be positive'),
      promptId: id().nullable().default(null),
    }),
    // A researcher's play, pause, seek or prompt: a few a minute, logged as any request is.
    answer: z.object({ playback: PlaybackRecord }),
  },
  recordsAppendExposure: {
    method: 'POST',
    path: '/internal/records/exposure/batch',
    service: 'records',
    summary: `Realtime's group commit of exposure events (1 to ${EXPOSURE_PER_APPEND}): the batches participants' clients reported and the joins and leaves realtime saw, stored by one INSERT. Idempotent by event id: an event stored before (a batch sent again) is skipped, not refused. One bad item refuses the call (400) and stores nothing. Answers the ids of the events stored now (not those stored before).`,
    request: z.object({ items: batchOf(AppendedExposure, EXPOSURE_PER_APPEND, 'event') }),
    answer: z.object({ storedIds: z.array(z.uuid()) }),
    hot: true,
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

/** The routes studies calls when who may be in sessions changed (live connections end at once). */
export const SESSION_ACCESS_LISTENERS = [
  internalRoutes.realtimeSessionAccessChanged,
  internalRoutes.signalSessionAccessChanged,
] as const;

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
