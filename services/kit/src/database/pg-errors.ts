/** Postgres error codes (SQLSTATE) the services act on, by name. */
export const PG_ERRORS = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  duplicateSchema: '42P06',
  invalidPassword: '28P01',
} as const;

/**
 * SQLSTATE classes and codes that mean "the database cannot answer now" rather than "this query is
 * wrong": connection exceptions (08), a server shutting down or starting (57P01-57P03), and too many
 * connections (53300).
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);
/** node-postgres says these in words, with no code. */
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
}

/** The SQLSTATE of an error from pg or TypeORM (which wraps pg's error as `driverError`), if any. */
export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as ErrorShape;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  return driverError === undefined ? undefined : pgErrorCode(driverError);
}

/** Whether an error says the database is unreachable, restarting or full: a 503, not a 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = pgErrorCode(error);
  if (code && (code.startsWith('08') || UNAVAILABLE_CODES.has(code))) return true;
  const { code: nodeCode, message, driverError } = error as ErrorShape;
  if (typeof nodeCode === 'string' && UNAVAILABLE_NODE_CODES.has(nodeCode)) return true;
  if (typeof message === 'string' && UNAVAILABLE_TEXT.test(message)) return true;
  return driverError !== undefined && isDatabaseUnavailable(driverError);
}
