import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalRouteList } from '@uis/proto';
import type { LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactUrl, type Logger } from '../logger';
import { runInRequest } from './request-context';

export const REQUEST_ID_HEADER = 'x-request-id';
const QUIET_PATHS = new Set(['/health', '/ready', '/metrics']);

/** A hot route's answer slower than this is logged at info even when it succeeded. */
export const SLOW_REQUEST_MS = 500;

/** `METHOD path` of the internal routes proto marks hot (called once per live event). */
export const HOT_INTERNAL_ROUTES: ReadonlySet<string> = new Set(
  internalRouteList.filter((route) => route.hot).map(routeKey),
);

function routeKey({ method, path }: { method: string; path: string }): string {
  return `${method} ${path}`;
}

const pathOf = (req: IncomingMessage) => (req.url ?? '').split('?')[0] ?? '';

export interface RequestLoggerOptions {
  /** `METHOD path` of routes whose successful, quick answers log at debug (default: proto's hot routes). */
  hotRoutes?: ReadonlySet<string>;
  /** From how many milliseconds a hot route's answer is slow (logged at info). */
  slowMs?: number;
}

/**
 * One structured line per request, with the gateway's request id (or a new one) echoed back; the
 * rest of the request runs with that id as its context (currentRequestId). A hot internal route
 * (realtime appends and lists once per chat message) logs its line at debug: at info, the line
 * costs more than the request's own work. Its refusals, failures and slow answers stay visible.
 */
export function requestLogger(
  logger: Logger,
  { hotRoutes = HOT_INTERNAL_ROUTES, slowMs = SLOW_REQUEST_MS }: RequestLoggerOptions = {},
) {
  /** When each hot request started (decided on arrival, before any router rewrites req.url). */
  const hotSince = new WeakMap<IncomingMessage, number>();
  const logRequest = pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers[REQUEST_ID_HEADER];
      const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has(pathOf(req)) },
    customLogLevel: (req, res, err): LevelWithSilent => {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      const since = hotSince.get(req);
      return since !== undefined && performance.now() - since < slowMs ? 'debug' : 'info';
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (hotRoutes.has(routeKey({ method: req.method ?? '', path: pathOf(req) })))
      hotSince.set(req, performance.now());
    logRequest(req, res);
    runInRequest(String((req as IncomingMessage & { id: string | number }).id), next);
  };
}
