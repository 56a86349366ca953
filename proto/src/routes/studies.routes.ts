import { z } from 'zod';
import {
  DEFAULT_GROUP_TITLE,
  DEFAULT_SESSION_TITLE,
  DEFAULT_SESSION_TYPE,
  EVERYONE,
  SCOPE_MAX_EMAILS,
  SESSION_STATES,
  SESSION_TYPES,
  SOURCE_MAX_CHARS,
  TITLE_MAX_CHARS,
  TRACK_MAX_CHARS,
} from '../constants';
import { Message, VALIDATION_TEXTS, email, id, optionalText, requiredText, textRules } from '../fields';
import { defineRoutes } from '../route';

export const sessionType = () => z.enum(SESSION_TYPES, { error: 'must be video, stream or chat' });

/**
 * Who may join a session: the e-mails of its participants, or 'Everyone'. On the wire it is plain
 * JSON; the spec's own form, the list JSON-encoded in a string, is accepted too. E-mails are
 * normalised and de-duplicated.
 */
const SCOPE_SHAPE_MESSAGE = `must be '${EVERYONE}' or a list of e-mails (plain or JSON-encoded)`;
const ScopeList = z
  .array(email(), { error: SCOPE_SHAPE_MESSAGE })
  .max(SCOPE_MAX_EMAILS, `must name at most ${SCOPE_MAX_EMAILS} participants`)
  .transform((emails) => [...new Set(emails)]);
/** The spec's form: '["ada@uni.edu","bo@uni.edu"]'. Its issues are the list's, so they name the entry. */
const JsonEncodedScopeList = z.string().transform((text, ctx) => {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: SCOPE_SHAPE_MESSAGE, input: text });
    return z.NEVER;
  }
  const list = ScopeList.safeParse(decoded);
  if (list.success) return list.data;
  for (const issue of list.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: text });
  return z.NEVER;
});
/** Which option of Scope's union a failed input was meant for: its issues say what is wrong. */
const SCOPE_OPTION_OF_INPUT = (input: unknown) =>
  Array.isArray(input) ? 1 : typeof input === 'string' ? 2 : -1;
export const Scope = z.union([z.literal(EVERYONE), ScopeList, JsonEncodedScopeList], {
  // A list with one bad entry should say which entry, not only that the union failed.
  error: (iss) => {
    if (iss.code !== 'invalid_union') return SCOPE_SHAPE_MESSAGE;
    const inner = iss.errors[SCOPE_OPTION_OF_INPUT(iss.input)]?.[0];
    if (!inner) return SCOPE_SHAPE_MESSAGE;
    const [index] = inner.path;
    return typeof index === 'number' ? `entry ${index + 1} ${inner.message}` : inner.message;
  },
});
export type Scope = z.output<typeof Scope>;

const title = () => requiredText(VALIDATION_TEXTS.empty, TITLE_MAX_CHARS);

export const Group = z.object({ group_id: z.uuid(), title: z.string() });
export type Group = z.infer<typeof Group>;

export const SessionInfo = z.object({
  title: z.string(),
  scope: Scope,
  type: z.enum(SESSION_TYPES),
  track: z.string(),
  source: z.string(),
  /**
   * Ours: where participants are sent when the researcher ends the live session; null:
   * nowhere. Studies always answers it; optional in the type so fixtures and clients written before
   * it (and an older studies during a rolling deploy) still fit.
   */
  completionUrl: z.string().nullable().optional(),
  /** Ours: not started, live or ended (SESSION_STATES); optional in the type as completionUrl is. */
  state: z.enum(SESSION_STATES).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const Session = SessionInfo.extend({ session_id: z.uuid() });
export type Session = z.infer<typeof Session>;

export const ParticipantSession = z.object({
  session_id: z.uuid(),
  type: z.enum(SESSION_TYPES),
  title: z.string(),
  /** Participants may never delete a session; the flag tells the list to disable the icon. */
  deleteDisabled: z.literal(true),
});
export type ParticipantSession = z.infer<typeof ParticipantSession>;

const SESSION_EDIT_FIELDS = ['title', 'scope', 'type', 'track', 'source', 'completionUrl', 'state'] as const;

export const COMPLETION_URL_MAX_CHARS = 2000;
export const COMPLETION_URL_TEXT = 'must be a web address starting with https:// or http://';

/** A web address a browser can be sent to: http(s) only (no javascript:, data: or relative paths). */
const isWebUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
};
// The text rules first: a URL parser drops tabs and line breaks, so they would reach the database.
const completionUrl = () =>
  textRules(
    z
      .string({ error: COMPLETION_URL_TEXT })
      .trim()
      .max(COMPLETION_URL_MAX_CHARS, `must be at most ${COMPLETION_URL_MAX_CHARS} characters`),
    'line',
  ).refine(isWebUrl, COMPLETION_URL_TEXT);

/** The caller's own e-mail, optional: the server uses the signed-in user, and another e-mail is a 403. */
const callerEmail = () => email().optional();

export const studiesRoutes = defineRoutes({
  getGroups: {
    method: 'GET',
    path: '/getGroups',
    service: 'studies',
    access: 'researcher',
    summary:
      "The caller's groups, oldest first. `email` is optional (the server uses the signed-in user); an e-mail that is not the caller's is a 403.",
    request: z.object({ email: callerEmail() }),
    answer: z.object({ groups: z.array(Group) }),
  },
  createGroup: {
    method: 'POST',
    path: '/createGroup',
    service: 'studies',
    access: 'researcher',
    summary: `Creates a group owned by the caller. Without a title it is '${DEFAULT_GROUP_TITLE}', numbered ('${DEFAULT_GROUP_TITLE} 2', ...) when the caller already has one, so new groups can be told apart. Answers the new group so the dashboard can select it; like every create call. \`email\` as in /getGroups.`,
    request: z.object({ email: callerEmail(), title: title().optional() }),
    answer: z.object({ group: Group }),
  },
  editGroup: {
    method: 'POST',
    path: '/editGroup',
    service: 'studies',
    access: 'researcher',
    summary:
      "Renames one of the caller's groups (another researcher's group: 403; unknown: 404). Edits and deletes answer a Message.",
    request: z.object({ groupId: id(), title: title() }),
    answer: Message,
  },
  deleteGroup: {
    method: 'POST',
    path: '/deleteGroup',
    service: 'studies',
    access: 'researcher',
    summary:
      "Deletes one of the caller's groups with its sessions, after asking content and records to delete those sessions' data; if one of them fails, nothing is deleted (503) and the call can be retried.",
    request: z.object({ groupId: id() }),
    answer: Message,
  },
  getSessions: {
    method: 'GET',
    path: '/getSessions',
    service: 'studies',
    access: 'researcher',
    summary: "The sessions of one of the caller's groups, oldest first (another researcher's group: 403).",
    request: z.object({ groupId: id() }),
    answer: z.object({ sessions: z.array(Session) }),
  },
  createSession: {
    method: 'POST',
    path: '/createSession',
    service: 'studies',
    access: 'researcher',
    summary: `Creates a session in one of the caller's groups: title '${DEFAULT_SESSION_TITLE}' (numbered '${DEFAULT_SESSION_TITLE} 2', ... when the group already has one), type ${DEFAULT_SESSION_TYPE}, scope ${EVERYONE}, empty track and source. Answers the new session so the dashboard can open its editor. \`email\` as in /getGroups.`,
    request: z.object({ groupId: id(), email: callerEmail() }),
    answer: z.object({ session: Session }),
  },
  deleteSession: {
    method: 'POST',
    path: '/deleteSession',
    service: 'studies',
    access: 'researcher',
    summary:
      "Deletes one of the caller's sessions after asking content and records to delete its data (actions, prompts, video, messages, clicks); if one of them fails, nothing is deleted (503) and the call can be retried.",
    request: z.object({ sessionId: id() }),
    answer: Message,
  },
  getSessionInfo: {
    method: 'GET',
    path: '/getSessionInfo',
    service: 'studies',
    access: 'user',
    summary: `A session's editable fields, for its owner or a participant in its scope (anyone else: 403; unknown session: 404). A participant sees scope as '${EVERYONE}' or their own e-mail only: the others' e-mails are not theirs to see.`,
    request: z.object({ sessionId: id() }),
    answer: z.object({ sessionInfo: SessionInfo }),
  },
  editSessionInfo: {
    method: 'POST',
    path: '/editSessionInfo',
    service: 'studies',
    access: 'researcher',
    summary:
      "Changes any of title, scope, type, track, source and completionUrl of one of the caller's sessions; at least one must be sent, so a misspelt field is a 400 rather than a silent no-op. Spec section 4: a type change clears source (unless the same edit sends one), and changing away from video first has content remove the uploaded video (503 and nothing saved if it cannot). A stream's source, when not empty, must be an http(s) URL with a v= parameter or a direct media URL (.mp4, .webm, .ogg, .ogv, .m3u8, .mpd, .mov). completionUrl (where participants go when the researcher ends the live session) is an http(s) URL of at most 2,000 characters, or null to clear it. state 'live' opens a session that has not started yet (participants waiting on it go in); an ended session is reopened only from its live page (the playback log records it), so here it is a 409.",
    request: z
      .object({
        sessionId: id(),
        title: title().optional(),
        scope: Scope.optional(),
        type: sessionType().optional(),
        track: optionalText(TRACK_MAX_CHARS, 'lines').optional(),
        source: optionalText(SOURCE_MAX_CHARS).optional(),
        /** null clears it. */
        completionUrl: completionUrl().nullable().optional(),
        /** 'live' opens a session that has not started (one run without the researcher's live page). */
        state: z.literal('live').optional(),
      })
      .refine((edit) => SESSION_EDIT_FIELDS.some((field) => edit[field] !== undefined), {
        message: `nothing to change: send at least one of ${SESSION_EDIT_FIELDS.join(', ')}`,
      }),
    answer: Message,
  },
  getParticipantSessions: {
    method: 'GET',
    path: '/getParticipantSessions',
    service: 'studies',
    access: 'user',
    summary:
      "The sessions whose scope holds the caller's e-mail or is Everyone (any signed-in user, researchers included), oldest first. `email` as in /getGroups. Every row has deleteDisabled: true.",
    request: z.object({ email: callerEmail() }),
    answer: z.object({ sessions: z.array(ParticipantSession) }),
  },
});
