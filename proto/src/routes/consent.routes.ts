import { z } from 'zod';
import { id, optionalText } from '../fields';
import { defineRoutes } from '../route';
import { RECORD_LIST_PAGING, nextPage, recordListRequest } from './records.routes';

/**
 * Ours: a session's consent text, which its participants agree to before the live session
 * opens, and a participant's withdrawal from a session. Studies keeps the texts (every version) and
 * the acceptances; records deletes a withdrawing participant's records and logs the withdrawal in the
 * same transaction, so the counts it logs are exactly what went.
 */

export const CONSENT_TEXT_MAX_CHARS = 20_000;

export const CONSENT_TEXTS = {
  /** Realtime's refusal (code CONSENT_REQUIRED), shown by the live page as the reason it closed. */
  required: "You have not agreed to this session's current consent text. Open the session again to read it.",
  changed: 'The consent text changed since you read it: read the new text, then agree to it.',
  noConsent: 'This session asks for no consent.',
  ownerAgrees: 'You run this session: its consent text is for its participants, not its researcher.',
  ownerWithdraws: 'You run this session: there is nothing to withdraw from (delete the session instead).',
} as const;

const sha256Hex = () =>
  z
    .string({ error: 'must be a SHA-256 in hex' })
    .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex (64 lower-case hexadecimal digits)');

/**
 * A consent text as it is stored: line breaks as LF, trimmed, so the same words always hash the
 * same (`sha256` is the SHA-256 of its UTF-8 bytes, in hex: `printf '%s' "$text" | sha256sum`).
 * Empty: the session asks for no consent.
 */
export const consentText = () =>
  optionalText(CONSENT_TEXT_MAX_CHARS, 'lines').transform((text) => text.replace(/\r\n?/g, '\n'));

/** One version of a session's consent text: versions count from 1, a new one only when the text changes. */
export const ConsentVersion = z.object({
  version: z.number().int().positive(),
  text: z.string(),
  sha256: z.string(),
  /** When the researcher saved it, ISO 8601 (UTC). */
  createdAt: z.iso.datetime(),
});
export type ConsentVersion = z.infer<typeof ConsentVersion>;

/** A participant's agreement to one version of a session's consent text. */
export const ConsentAcceptance = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  version: z.number().int().positive(),
  /** The SHA-256 of the text agreed to (the version's). */
  sha256: z.string(),
  acceptedAt: z.iso.datetime(),
  /** When the participant withdrew from the session (the agreement ended then), or null. */
  withdrawnAt: z.iso.datetime().nullable(),
});
export type ConsentAcceptance = z.infer<typeof ConsentAcceptance>;

/** A participant's withdrawal from a session: who, when, and how many of their records went. */
export const Withdrawal = z.object({
  withdrawal_id: z.uuid(),
  /** When they withdrew, ISO 8601 (UTC). */
  time: z.iso.datetime(),
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  /** Their chat messages (reactions included) deleted. */
  messages: z.number().int().nonnegative(),
  /** Their clicks deleted. */
  clicks: z.number().int().nonnegative(),
});
export type Withdrawal = z.infer<typeof Withdrawal>;

export const consentRoutes = defineRoutes({
  getSessionConsent: {
    method: 'GET',
    path: '/getSessionConsent',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary:
      "The consent text of one of the caller's sessions (its current version, or null when none was ever set) and every participant's agreement to any version, newest first. Another researcher's session: 403.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ consent: ConsentVersion.nullable(), acceptances: z.array(ConsentAcceptance) }),
  },
  setSessionConsent: {
    method: 'POST',
    path: '/setSessionConsent',
    service: 'studies',
    access: 'researcher',
    extension: true,
    summary: `Sets the consent text of one of the caller's sessions (at most ${CONSENT_TEXT_MAX_CHARS} characters; line breaks kept as LF, trimmed). A new version is stored only when the text differs from the current one (\`changed\`); an empty text means the session asks for no consent. Participants must agree to the new version before they go on in the live session (live connections are told at once).`,
    request: z.object({ sessionId: id(), text: consentText() }),
    answer: z.object({ consent: ConsentVersion.nullable(), changed: z.boolean() }),
  },
  getMyConsent: {
    method: 'GET',
    path: '/getMyConsent',
    service: 'studies',
    access: 'user',
    extension: true,
    summary:
      "For the owner or a participant in the session's scope: the session's current consent text (null when it asks for none), whether the caller must still agree to it before the live session opens (never its owner), when they agreed to it, and whether the page must ask them to confirm they take part before anything reaches the researcher (`mustConfirm`: a session scoped to Everyone they have not entered yet, see enterSession).",
    request: z.object({ sessionId: id() }),
    answer: z.object({
      consent: ConsentVersion.nullable(),
      required: z.boolean(),
      acceptedAt: z.iso.datetime().nullable(),
      mustConfirm: z.boolean(),
    }),
  },
  acceptConsent: {
    method: 'POST',
    path: '/acceptConsent',
    service: 'studies',
    access: 'user',
    extension: true,
    summary:
      "A participant in the session's scope agrees to its current consent text, named by its SHA-256 (so they agree to exactly what they read: another text is a 409). Stores who, when, the version and its hash; agreeing again to the same version keeps the first agreement. Its owner: 403; a session asking for no consent: 409.",
    request: z.object({ sessionId: id(), sha256: sha256Hex() }),
    answer: z.object({
      acceptance: z.object({ version: z.number().int(), sha256: z.string(), acceptedAt: z.iso.datetime() }),
    }),
  },
  withdrawFromSession: {
    method: 'POST',
    path: '/withdrawFromSession',
    service: 'studies',
    access: 'user',
    extension: true,
    summary:
      "A participant in the session's scope withdraws from it: records deletes their chat messages (reactions included) and clicks in this session only, with the audit entries about them, and logs the withdrawal (who, when, the counts), which the researcher sees (/getSessionWithdrawals) and exports; their agreement to the consent text ends, and their e-mail leaves the session's scope unless that is Everyone. Its owner: 403. If records cannot be reached nothing changes (503); a retry is safe.",
    request: z.object({ sessionId: id() }),
    answer: z.object({ withdrawal: Withdrawal }),
  },
  getSessionWithdrawals: {
    method: 'GET',
    path: '/getSessionWithdrawals',
    service: 'records',
    access: 'researcher',
    extension: true,
    summary: `The withdrawals from one of the caller's sessions, oldest first: who withdrew, when, and how many of their messages and clicks were deleted. Another researcher's session: 403. ${RECORD_LIST_PAGING}`,
    request: recordListRequest(),
    answer: z.object({ withdrawals: z.array(Withdrawal), next: nextPage() }),
  },
});
