/** Result markers of every REST answer (spec section 4). Zod-free: the browser bundles it. */
export const STATUS = { SUCCESS: 'SUCCESS', ERROR: 'ERROR' } as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];

/**
 * Error codes a client may act on (besides the HTTP status). REVOKED: the login was ended on the
 * server (logout, a replayed refresh token, account deletion). CONSENT_REQUIRED: a participant has
 * not agreed to the session's current consent text (a 403 otherwise). SESSION_ENDED: the session
 * has ended; nothing is accepted in it until its researcher reopens it (a 409). SESSION_NOT_STARTED:
 * a participant waits until the session starts (a 409).
 */
const CODES = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'REVOKED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA',
  'SIGNUP_REQUIRED',
  'CONSENT_REQUIRED',
  'SESSION_ENDED',
  'SESSION_NOT_STARTED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
/** Each code by its name. Made from the list: the login route's bundle carries it, each name once. */
export const ERROR_CODES = Object.fromEntries(CODES.map((code) => [code, code])) as {
  readonly [C in (typeof CODES)[number]]: C;
};
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
