import { z } from 'zod';
import { LIVE_MESSAGE_PAGE, NAME_MAX_CHARS, SESSION_STATES, SESSION_TYPES } from './constants';
import { VALIDATION_TEXTS, email, id, messageText, requiredText, videoTime } from './fields';
import { PARTICIPANT_SOURCES, PanelIdConflicts, PanelIds } from './routes/participation.routes';
import { MessageRecord } from './routes/records.routes';
import { EXPOSURE_KINDS } from './routes/exposure.routes';

// The schemas, limits and request shapes of the internal routes (internal.ts holds the table itself).
// What only the table uses is exported for it, not re-exported by proto's index.

/** How realtime moves a session through its life (studiesSessionLifecycle). */
export const SESSION_LIFECYCLE_CHANGES = ['start', 'end', 'reopen'] as const;
export type SessionLifecycleChange = (typeof SESSION_LIFECYCLE_CHANGES)[number];

export const SESSION_ROLES = ['owner', 'participant', 'none'] as const;
export type SessionRole = (typeof SESSION_ROLES)[number];

export const SessionAccess = z.object({
  role: z.enum(SESSION_ROLES),
  /** null when the session does not exist (then role is 'none'): callers answer 404, not 403. */
  sessionType: z.enum(SESSION_TYPES).nullable(),
  /**
   * Ours: true when the user is a participant who has not agreed to the session's current
   * consent text (realtime and records refuse their live events and messages, CONSENT_REQUIRED).
   * Absent otherwise (and from an older studies).
   */
  consentPending: z.boolean().optional(),
  /**
   * Ours: where the session is in its life (kit's roomAccess and writeAccess judge it). Absent for
   * no session, and from an older studies (then taken as live).
   */
  state: z.enum(SESSION_STATES).optional(),
});
export type SessionAccess = z.infer<typeof SessionAccess>;

/** Studies' answer about a group: does it exist, does the user own it, and its sessions (owner only). */
export const GroupSessions = z.object({
  exists: z.boolean(),
  owner: z.boolean(),
  sessionIds: z.array(z.uuid()),
});
export type GroupSessions = z.infer<typeof GroupSessions>;

/** One question to studies: what may this user (as signed in) do in this session? */
export const AccessCheck = z.object({ sessionId: id(), userId: id(), email: email() });

/**
 * The most checks one studiesAccessBatch call carries. Realtime sends the cache misses that arrived
 * while its previous call was in flight as one call, so this caps one query, not the rate.
 */
export const ACCESS_CHECKS_PER_CALL = 200;

export const UserDataDeleteRequest = z.object({ userId: id(), email: email() });
export const userDataDeleteSummary = (what: string) =>
  `Account deletion: removes ${what}. Idempotent: a second call finds nothing and succeeds.`;

/** The most session ids one session-data delete call carries (callers send larger sets in batches). */
export const SESSION_IDS_PER_DELETE = 1000;
export const SessionDataDeleteRequest = z.object({
  sessionIds: z.array(id()).min(1).max(SESSION_IDS_PER_DELETE),
});
/**
 * Studies tells the services holding live connections when who may be in sessions changed (a scope
 * or type edit) or the sessions are gone, so they end what is no longer allowed at once.
 */
export const SessionAccessChangedRequest = z.object({
  sessionIds: z.array(id()).min(1).max(SESSION_IDS_PER_DELETE),
  deleted: z.boolean(),
});
export const sessionAccessChangedSummary = (what: string) =>
  `Studies calls it after a session's scope or type changed, or sessions were deleted: ${what}. Idempotent; studies does not wait for it to change anything.`;

export const sessionDataDeleteSummary = (what: string) =>
  `Session deletion (a session, or every session of a group): removes ${what} of those sessions. Idempotent.`;

/** The largest page of messages one internal call reads. */
export const MESSAGE_PAGE_MAX = 500;

/** Who the realtime server acts for when it appends a record. */
export const Author = {
  userId: id(),
  email: email(),
  name: requiredText(VALIDATION_TEXTS.empty, NAME_MAX_CHARS),
};

/** A chat message realtime appends for the signed-in user it checked. */
export const AppendedMessage = z.object({
  sessionId: id(),
  ...Author,
  message: messageText(),
  /** The session's video time when realtime received it (its room's playback status), or null. */
  videoTime: videoTime().nullable().default(null),
  /** A reaction's action id, or null for a typed message. */
  actionId: id().nullable().default(null),
});

/**
 * The most messages one recordsAppendMessages call carries. Realtime sends what arrived while its
 * previous append was in flight as one call, so this caps one INSERT, not the rate.
 */
export const MESSAGES_PER_APPEND = 200;

/**
 * An exposure event realtime appends for the participant it checked: one their client reported
 * (its id is the client's), or a join or leave of realtime's own (clientTime null).
 */
export const AppendedExposure = z.object({
  sessionId: id(),
  ...Author,
  eventId: id(),
  kind: z.enum(EXPOSURE_KINDS, { error: `must be one of ${EXPOSURE_KINDS.join(', ')}` }),
  videoTime: videoTime().nullable(),
  clientTime: z.number({ error: 'must be a time in epoch milliseconds' }).int().positive().nullable(),
});

/**
 * The most exposure events one recordsAppendExposure call carries: realtime sends what arrived while
 * its previous append was in flight as one call (about 250 bytes each, well inside the body limit).
 */
export const EXPOSURE_PER_APPEND = 200;

/**
 * The most session ids one recordsLatestMessages call carries. Realtime sends the joins that arrived
 * while its previous read was in flight as one call, so this caps one statement, not the rate; and
 * one answer (50 pages of 100 messages: about 0.5 MB of JSON, parsed and checked at once).
 */
export const SESSIONS_PER_LATEST_READ = 50;

/** A batch route's list: 1 to `max` items, the messages naming what it holds ("session id(s)"). */
export const batchOf = <T extends z.ZodType>(
  item: T,
  max: number,
  one: string,
  many = `${one}s`,
  list = many,
) =>
  z
    .array(item, { error: `must be a list of ${list}` })
    .min(1, `must hold at least one ${one}`)
    .max(max, `must hold at most ${max} ${many}`);

/** How many messages a page holds; `number` is z.coerce.number for a query string, z.number for JSON. */
export const pageLimit = (number: () => z.ZodNumber) =>
  number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MESSAGE_PAGE_MAX, `must be at most ${MESSAGE_PAGE_MAX}`)
    .default(LIVE_MESSAGE_PAGE);

/** One participant of a session's roster (studiesSessionRoster). */
export const RosterEntry = z.object({
  email: z.string(),
  /** Null until the person has an account and opened the session. */
  userId: z.string().nullable(),
  source: z.enum(PARTICIPANT_SOURCES),
  invitedAt: z.string().nullable(),
  joinedAt: z.string().nullable(),
  panelIds: PanelIds,
  panelIdConflicts: PanelIdConflicts,
});
export type RosterEntry = z.infer<typeof RosterEntry>;

/** A session's settings as records' exports write them (studiesSessionSettings). */
export const SessionSettings = z.object({
  sessionId: z.uuid(),
  groupId: z.uuid(),
  groupTitle: z.string(),
  title: z.string(),
  type: z.enum(SESSION_TYPES),
  source: z.string(),
  track: z.string(),
  /** 'everyone' (any signed-in participant) or 'list' (the e-mails of the scope only). */
  scopeKind: z.enum(['everyone', 'list']),
  /** How many e-mails the scope lists; null for everyone. */
  scopeSize: z.number().int().nonnegative().nullable(),
  completionUrl: z.string().nullable(),
  /** ISO 8601 (UTC). */
  createdAt: z.iso.datetime(),
});
export type SessionSettings = z.infer<typeof SessionSettings>;

/** A page of a session's messages, oldest first; `hasMore`: older ones remain. */
export const MessagePageAnswer = z.object({ messages: z.array(MessageRecord), hasMore: z.boolean() });

/** The most e-mails studiesResearcherPeople answers: ten full scopes. */
export const RESEARCHER_PEOPLE_MAX = 10_000;
