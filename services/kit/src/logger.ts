import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { currentRequestId } from './http/request-context';

export type { Logger } from 'pino';

/** Log paths that must never reach a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.secret',
];

/** Tokens, and an OpenID Connect provider's authorization code (a credential until redeemed). */
const SECRET_QUERY = /([?&](?:token|accessToken|refreshToken|code)=)[^&#]*/gi;

/** Removes credentials from a URL so logs (requests and errors alike) never hold a usable one. */
export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[Redacted]');

export interface LoggerOptions {
  service: string;
  level?: string;
  format?: 'json' | 'pretty';
  /** For tests: write somewhere else than stdout. */
  destination?: NodeJS.WritableStream;
}

export function createLogger({
  service,
  level = 'info',
  format = 'json',
  destination,
}: LoggerOptions): Logger {
  const options = {
    level,
    base: { service },
    redact: { paths: REDACT, censor: '[Redacted]' },
    // Every line written while handling a request names it (the gateway's X-Request-Id).
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  if (format === 'pretty') {
    return pino(
      options,
      pretty({
        sync: true,
        destination: destination ?? 1,
        ignore: 'pid,hostname',
        translateTime: 'SYS:HH:MM:ss',
      }),
    );
  }
  return destination ? pino(options, destination) : pino(options);
}
