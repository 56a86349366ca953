import { z } from 'zod';
import {
  INVITATIONS_PER_ADDRESS_PER_HOUR,
  INVITATION_TTL_HOURS,
  JOIN_ATTEMPTS_PER_MINUTE,
  PANEL_IDS_MAX,
  PANEL_ID_CONFLICTS_MAX,
  PANEL_ID_NAME_PATTERN,
  PANEL_ID_VALUE_MAX_CHARS,
  SCOPE_MAX_EMAILS,
  SESSION_STATES,
  SESSION_TYPES,
} from '../constants';
import { Message, email, id, opaqueToken, textRules } from '../fields';
import { defineRoutes } from '../route';

/**
 * A recruitment panel's ids for one participant (Prolific's PROLIFIC_PID, STUDY_ID, SESSION_ID, ...),
 * as the join link's query carried them: kept with the participant and exported beside their records.
 */
export const PanelIds = z
  .record(
    z.string().regex(PANEL_ID_NAME_PATTERN, 'must be a name of letters, digits and underscores'),
    textRules(
      z.string().max(PANEL_ID_VALUE_MAX_CHARS, `must be at most ${PANEL_ID_VALUE_MAX_CHARS} characters`),
      'line',
    ),
  )
  .refine((ids) => Object.keys(ids).length <= PANEL_IDS_MAX, `must hold at most ${PANEL_IDS_MAX} ids`);
export type PanelIds = z.infer<typeof PanelIds>;

/** Panel ids of a later join that differed from the first join's (which are the ones kept). */
export const PanelIdConflicts = z
  .array(z.object({ at: z.string(), panelIds: PanelIds }))
  .max(PANEL_ID_CONFLICTS_MAX);
export type PanelIdConflicts = z.infer<typeof PanelIdConflicts>;

/** How someone came to a session: named in its scope (and invited by mail), or through its join link. */
export const PARTICIPANT_SOURCES = ['scope', 'link'] as const;
export type ParticipantSource = (typeof PARTICIPANT_SOURCES)[number];

/** A participant of a session as its researcher sees them: invited (not come yet) or joined. */
export const SessionPerson = z.object({
  email: z.string(),
  source: z.enum(PARTICIPANT_SOURCES),
  status: z.enum(['invited', 'joined']),
  /** Invitation mails sent, and when the last one was (null: none yet). */
  invitations: z.number().int().nonnegative(),
  invitedAt: z.string().nullable(),
  /** When they first opened the session (null: not yet). */
  joinedAt: z.string().nullable(),
  panelIds: PanelIds,
  panelIdConflicts: PanelIdConflicts,
});
export type SessionPerson = z.infer<typeof SessionPerson>;

export const JoinLink = z.object({
  /** The link's secret (256 random bits): the web app's /join/<token>. */
  token: z.string(),
  /** At most this many people may join through it; null: no cap. */
  maxParticipants: z.number().int().positive().nullable(),
  /** People who joined through it so far. */
  joined: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type JoinLink = z.infer<typeof JoinLink>;

const maxParticipants = () =>
  z
    .number({ error: 'must be a whole number of participants, or null for no cap' })
    .int('must be a whole number of participants')
    .min(1, 'must be at least 1')
    .max(SCOPE_MAX_EMAILS, `must be at most ${SCOPE_MAX_EMAILS}`);

/** Ours: invitations by mail, join links and recruitment panels' ids. */
export const participationRoutes = defineRoutes({
  getSessionPeople: {
    method: 'GET',
    path: '/getSessionPeople',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary:
      "The participants of one of the caller's sessions: everyone its scope names (invited by mail when they were added) and everyone who joined through its join link, each invited (not come yet) or joined (opened the session), with their invitation mails and recruitment-panel ids. Another researcher's session: 403.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ people: z.array(SessionPerson) }),
  },
  resendInvitation: {
    method: 'POST',
    path: '/resendInvitation',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary: `Mails the invitation of one e-mail in the session's scope again (one mail per request; an e-mail not in the scope: 404). Its link signs the person in, or up, and opens the session; it is valid ${INVITATION_TTL_HOURS / 24} days and once. At most ${INVITATIONS_PER_ADDRESS_PER_HOUR} invitations per address and session in an hour (429).`,
    request: z.object({ sessionId: id(), email: email() }),
    answer: Message,
  },
  getJoinLink: {
    method: 'GET',
    path: '/getJoinLink',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary: "The join link of one of the caller's sessions, or null when it has none (or it was revoked).",
    request: z.object({ sessionId: id() }),
    answer: z.object({ joinLink: JoinLink.nullable() }),
  },
  createJoinLink: {
    method: 'POST',
    path: '/createJoinLink',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary:
      'Makes the session joinable by link, with a new unguessable token (an earlier link of the session stops working), optionally capped at maxParticipants people joining through it.',
    request: z.object({ sessionId: id(), maxParticipants: maxParticipants().nullable().default(null) }),
    answer: z.object({ joinLink: JoinLink }),
  },
  revokeJoinLink: {
    method: 'POST',
    path: '/revokeJoinLink',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary:
      'Revokes the session’s join link: it no longer adds anyone (those who joined stay in the scope).',
    request: z.object({ sessionId: id() }),
    answer: Message,
  },
  getJoinLinkInfo: {
    method: 'GET',
    path: '/getJoinLinkInfo',
    service: 'studies',
    access: 'public',
    extension: true,
    summary:
      "What a join link's landing page shows before anyone signs in: the session's title and type, and where it is in its life (an ended session takes nobody in). Anyone holding the token may ask; an unknown or revoked token: 404.",
    request: z.object({ token: opaqueToken() }),
    answer: z.object({
      title: z.string(),
      type: z.enum(SESSION_TYPES),
      state: z.enum(SESSION_STATES),
    }),
  },
  joinSession: {
    method: 'POST',
    path: '/joinSession',
    service: 'studies',
    access: 'user',
    extension: true,
    summary: `A signed-in participant follows a join link: their e-mail joins the session's scope (unless it is Everyone) and panelIds (the link's query, a recruitment panel's ids) are kept with them: a later join with other ids keeps the first and records the others as a conflict (at most ${PANEL_ID_CONFLICTS_MAX}); answers the session to open. The session's own researcher is simply answered it. An unknown or revoked token: 404; a full session: 409. At most ${JOIN_ATTEMPTS_PER_MINUTE} attempts per user a minute (429).`,
    request: z.object({ token: opaqueToken(), panelIds: PanelIds.default({}) }),
    answer: z.object({ sessionId: z.string() }),
  },
  enterSession: {
    method: 'POST',
    path: '/enterSession',
    service: 'studies',
    access: 'user',
    extension: true,
    summary:
      "A participant in the session's scope takes part: from then on its researcher's People list shows them as joined. Opening a session (getSessionInfo) records nothing, so following a link to a session tells its researcher nothing until the person confirms (getMyConsent's `mustConfirm` says when the page must ask: a session scoped to Everyone they have not entered yet). The owner: a no-op.",
    request: z.object({ sessionId: id() }),
    answer: Message,
  },
});
