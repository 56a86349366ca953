/** Result markers of every REST answer (spec section 4). Zod-free: the browser bundles it. */
export const STATUS = { SUCCESS: 'SUCCESS', ERROR: 'ERROR' } as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];

/** Error codes a client may act on (besides the HTTP status). */
export const ERROR_CODES = {
  VALIDATION: 'VALIDATION',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The login was ended on the server (logout, a replayed refresh token, account deletion). */
  REVOKED: 'REVOKED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA: 'UNSUPPORTED_MEDIA',
  SIGNUP_REQUIRED: 'SIGNUP_REQUIRED',
  /** A participant has not agreed to the session's current consent text (a 403 otherwise). */
  CONSENT_REQUIRED: 'CONSENT_REQUIRED',
  /** The session has ended: nothing is accepted in it until its researcher reopens it (a 409). */
  SESSION_ENDED: 'SESSION_ENDED',
  /** The session has not started yet: a participant waits (a 409). */
  SESSION_NOT_STARTED: 'SESSION_NOT_STARTED',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
