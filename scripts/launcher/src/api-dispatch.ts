import fs from 'node:fs';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Readiness, securityHeaders } from '@uis/kit';
import {
  APP_CONFIG_PATH,
  ASSETS_PATH,
  DEFAULT_APP_CONFIG,
  ERROR_CODES,
  INTERNAL_PATH_PREFIX,
  PEER_PATH,
  REALTIME_PATH,
  SERVICE_NAMES,
  STATUS,
  findRoute,
  routeList,
  type AppConfig,
  type ErrorEnvelope,
  type HttpMethod,
  type ServiceName,
} from '@uis/proto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';

/**
 * The embedded mode's gateway: one express app on API_PORT that hands each request to the Nest app
 * of the service that owns it, as nginx does in the distributed mode, from the same route table.
 * The services' apps never listen themselves; their express instances are called in-process.
 */

export interface DispatchOptions {
  /** The Nest apps composed into this process; a path of any other service is left to the 404. */
  apps: ReadonlyMap<ServiceName, INestApplication>;
  /** The built web app (web/dist); served when given. */
  webDist?: string;
  /** Whether users reach the app over https (PUBLIC_URL): then HSTS is sent too. */
  tls?: boolean;
  /** The web app's run-time settings, served at APP_CONFIG_PATH (the gateway serves the same file). */
  appConfig?: AppConfig;
}

/** Internal calls come from the services in this process, through loopback: no one else may send them. */
const isLoopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

type Handler = (req: Request, res: Response, next: NextFunction) => void;

const sendError = (res: Response, httpStatus: number, message: string, code: string) => {
  const body: ErrorEnvelope = { status: STATUS.ERROR, res: { message, code } };
  res.status(httpStatus).json(body);
};

const notFound = (req: Request, res: Response) =>
  sendError(res, 404, `No such route: ${req.method} ${req.path}`, ERROR_CODES.NOT_FOUND);

const isServiceName = (value: string): value is ServiceName => (SERVICE_NAMES as string[]).includes(value);

/** Which service owns a request, by the route table (method and exact path) and the path prefixes. */
export function ownerOf(method: string, requestPath: string): ServiceName | undefined {
  // A CORS preflight is for whichever method the path has; HEAD is answered by the GET route.
  const route =
    method === 'OPTIONS'
      ? routeList.find((entry) => entry.path === requestPath)
      : findRoute((method === 'HEAD' ? 'GET' : method) as HttpMethod, requestPath);
  if (route) return route.service;
  if (requestPath.startsWith(INTERNAL_PATH_PREFIX)) {
    const service = requestPath.slice(INTERNAL_PATH_PREFIX.length).split('/')[0] ?? '';
    return isServiceName(service) ? service : undefined;
  }
  return undefined;
}

/**
 * Services that run servers of their own (socket.io, PeerJS) also answer through the API port, as
 * they do through the gateway, so the browser needs one origin. Their requests and WebSocket
 * upgrades are handed to their HTTP servers in-process, which see them as their own.
 */
const OWN_SERVER_PREFIXES: ReadonlyArray<readonly [prefix: string, service: ServiceName]> = [
  [REALTIME_PATH, 'realtime'],
  [`${PEER_PATH}/`, 'signal'],
];

/** The path through which a service with a server of its own also answers on the API port. */
export const ownServerPathOf = (service: ServiceName): string | undefined =>
  OWN_SERVER_PREFIXES.find(([, owner]) => owner === service)?.[0];

export const ownServerOf = (url = ''): ServiceName | undefined =>
  OWN_SERVER_PREFIXES.find(([prefix]) => url.startsWith(prefix))?.[1];

const httpServerOf = (apps: ReadonlyMap<ServiceName, INestApplication>, service: ServiceName | undefined) =>
  service ? (apps.get(service)?.getHttpServer() as http.Server | undefined) : undefined;

/** Hands WebSocket upgrades for /socket.io/ and /stream/ to realtime's and signal's servers. */
export function forwardUpgrades(server: http.Server, apps: ReadonlyMap<ServiceName, INestApplication>): void {
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = httpServerOf(apps, ownServerOf(req.url));
    if (target) return target.emit('upgrade', req, socket, head);
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
}

/** The readiness failures of every composed app, by service (empty when all are ready). */
async function notReady(apps: ReadonlyMap<ServiceName, INestApplication>): Promise<string[]> {
  const results = await Promise.all(
    [...apps].map(async ([name, app]) => {
      let readiness: Readiness;
      try {
        readiness = app.get(Readiness, { strict: false });
      } catch {
        return []; // an app without the kit's readiness has nothing to wait for
      }
      const failures = await readiness.failures();
      return failures.length > 0 ? [`${name} (${failures.join('; ')})`] : [];
    }),
  );
  return results.flat();
}

export function createApiDispatcher({
  apps,
  webDist,
  tls = false,
  appConfig = DEFAULT_APP_CONFIG,
}: DispatchOptions): Express {
  const startedAt = Date.now();
  const handlers = new Map<ServiceName, Handler>(
    [...apps].map(([name, app]) => [name, app.getHttpAdapter().getInstance() as Handler]),
  );
  const forward = (service: ServiceName, req: Request, res: Response, next: NextFunction) => {
    const handler = handlers.get(service);
    if (handler) return handler(req, res, next);
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  // No body parser here: the stream must reach the service's app unread.
  app.use(securityHeaders({ tls }));

  app.get('/health', (_req, res) => {
    res.json({
      status: STATUS.SUCCESS,
      res: { service: 'embedded', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) },
    });
  });

  app.get('/ready', async (_req, res) => {
    const failures = await notReady(apps);
    if (failures.length > 0) {
      return sendError(res, 503, `Not ready: ${failures.join(', ')}`, ERROR_CODES.UNAVAILABLE);
    }
    res.json({ status: STATUS.SUCCESS, res: { ready: true, services: [...apps.keys()] } });
  });

  app.get(APP_CONFIG_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(appConfig);
  });

  app.use((req, res, next) => {
    const ownServer = httpServerOf(apps, ownServerOf(req.url));
    if (ownServer) return void ownServer.emit('request', req, res);
    next();
  });

  app.use((req, res, next) => {
    const owner = ownerOf(req.method, req.path);
    if (!owner) return next();
    // As at the gateway, /internal/ is not reachable from outside (it also needs the service token).
    if (req.path.startsWith(INTERNAL_PATH_PREFIX) && !isLoopback(req.socket.remoteAddress)) return next();
    forward(owner, req, res, next);
  });

  const index = webDist ? path.join(webDist, 'index.html') : undefined;
  // The web build's files live under /static/ (vite assetsDir); content's videos under /assets/<session>/<file>.
  if (webDist) app.use(express.static(webDist));

  // Not `app.use(ASSETS_PATH, ...)`: mounting would strip the prefix from the URL content's app sees.
  app.use((req, res, next) => {
    if (req.path.startsWith(`${ASSETS_PATH}/`)) return forward('content', req, res, next);
    next();
  });

  if (index && fs.existsSync(index)) {
    // Client-side routes (/dashboard, /authcallback?email=...) load the app, which routes itself.
    app.use((req, res, next) => {
      const wantsPage = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
      if (!wantsPage) return next();
      res.sendFile(index);
    });
  }

  app.use(notFound);
  return app;
}
