import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppError, LOGGER, type Logger } from '@uis/kit';
import {
  ERROR_CODES,
  PEER_ALIVE_TIMEOUT_MS,
  PEER_KEY,
  PEER_PATH,
  STATUS,
  type ErrorEnvelope,
} from '@uis/proto';
import type * as Peer from 'peer' with { 'resolution-mode': 'import' };
import { WebSocketServer, type ServerOptions } from 'ws';
import { AdmittedPeers } from './admitted-peers';
import { RegistrationGate, type AdmittedPeer } from './registration-gate';
import { SessionScopedSocket } from './session-scoped-socket';
import { StoppableTimers } from './stoppable-timers';

/**
 * Largest signalling message a peer may send. Offers and answers are SDP text of a few kilobytes;
 * ws's default (100 MiB) would let one peer make the server buffer that much.
 */
export const PEER_MESSAGE_MAX_BYTES = 64 * 1024;

// peer's build is CommonJS but its typings are ESM-only, which TypeScript will not `import` from CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ExpressPeerServer } = require('peer') as typeof Peer;

type Verdict = (verified: boolean, code?: number, message?: string, headers?: OutgoingHttpHeaders) => void;

/**
 * The PeerJS server (`peer`) on the signal app: GET /stream/peerjs/id and the WebSocket at
 * /stream/peerjs on the app's own HTTP server. Registration goes through the RegistrationGate on
 * the upgrade, and each admitted socket relays within its session only (SessionScopedSocket).
 */
@Injectable()
export class PeerSignalling implements BeforeApplicationShutdown {
  private socketServer: WebSocketServer | undefined;
  private readonly timers = new StoppableTimers();
  private readonly admitted = new WeakMap<IncomingMessage, AdmittedPeer>();

  constructor(
    private readonly gate: RegistrationGate,
    private readonly peers: AdmittedPeers,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The configure step (before init, on every path): mounts PeerJS at PEER_PATH. */
  mount(app: NestExpressApplication): void {
    const peerServer = ExpressPeerServer(app.getHttpServer(), {
      path: '/',
      key: PEER_KEY,
      alive_timeout: PEER_ALIVE_TIMEOUT_MS,
      // Listing every registered id would tell anyone who is in which call.
      allow_discovery: false,
      createWebSocketServer: (options) => this.createSocketServer(options),
    });
    peerServer.on('connection', (client) => this.logger.debug({ peerId: client.getId() }, 'peer registered'));
    peerServer.on('disconnect', (client) => this.logger.debug({ peerId: client.getId() }, 'peer left'));
    // PeerJS emits 'error' for a malformed message or a socket error: unheard, it would end the process.
    peerServer.on('error', (error) =>
      this.logger.warn({ err: error }, 'PeerJS: bad message or socket error'),
    );
    // Mounting starts PeerJS's timer loops, which it offers no way to stop (see StoppableTimers).
    this.timers.run(() => app.use(PEER_PATH, peerServer));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.timers.stop();
    const server = this.socketServer;
    if (!server) return;
    // ws leaves the sockets of a server it did not create open; the HTTP server would wait for them.
    for (const socket of server.clients) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private createSocketServer(options: Pick<ServerOptions, 'path' | 'server'>): WebSocketServer {
    const server = new WebSocketServer({
      ...options,
      WebSocket: SessionScopedSocket,
      maxPayload: PEER_MESSAGE_MAX_BYTES,
      verifyClient: (info: { req: IncomingMessage }, verdict: Verdict) => void this.verify(info.req, verdict),
    });
    // Registered before PeerJS's own listener (it adds it once this returns), so the scope is set first.
    server.on('connection', (socket: SessionScopedSocket, req: IncomingMessage) => {
      socket.admitted = this.admitted.get(req);
      this.peers.add(socket);
      socket.onRefusedRelay = (destination) =>
        this.logger.info(
          { peerId: socket.admitted?.peerId, destination },
          'peer message to another session refused',
        );
    });
    this.socketServer = server;
    return this.socketServer;
  }

  /** Lets the upgrade through for an admitted peer; otherwise answers the gate's error as the REST API would. */
  private async verify(req: IncomingMessage, verdict: Verdict): Promise<void> {
    try {
      this.admitted.set(req, await this.gate.admit(req));
      verdict(true);
    } catch (error) {
      const refusal = error instanceof AppError ? error : undefined;
      if (refusal) {
        this.logger.info(
          { status: refusal.httpStatus, reason: refusal.message, ip: req.socket.remoteAddress },
          'peer registration refused',
        );
      } else {
        this.logger.error({ err: error }, 'peer registration failed');
      }
      const body: ErrorEnvelope = {
        status: STATUS.ERROR,
        res: {
          message: refusal?.message ?? 'Internal error',
          code: refusal?.code ?? ERROR_CODES.INTERNAL,
        },
      };
      verdict(false, refusal?.httpStatus ?? 500, JSON.stringify(body), {
        'Content-Type': 'application/json; charset=utf-8',
      });
    }
  }
}
