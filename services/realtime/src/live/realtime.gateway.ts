import { Inject } from '@nestjs/common';
import {
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayConnection,
  type OnGatewayInit,
} from '@nestjs/websockets';
import { JWT_SECRET } from '@uis/kit';
import { CLIENT_EVENT_NAMES } from '@uis/proto';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { handshakeMiddleware } from '../transport/handshake';
import { LiveEvents } from './live-events';
import type { LiveServer, LiveSocket } from './live-socket';

/**
 * The socket.io endpoint (server options come from RealtimeIoAdapter). Each client event goes to
 * LiveEvents, which validates it, applies the session's rules and answers the acknowledgement.
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit<LiveServer>, OnGatewayConnection<LiveSocket> {
  @WebSocketServer() server!: LiveServer;

  constructor(
    private readonly events: LiveEvents,
    @Inject(JWT_SECRET) private readonly jwtSecret: string,
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
  ) {}

  afterInit(server: LiveServer): void {
    server.use(handshakeMiddleware(this.jwtSecret, this.config.allowedOrigins));
  }

  /**
   * Every client event of proto's table, wired in one loop so none can be missed or misnamed. The
   * last argument is the acknowledgement when the client passed one (socket.io's convention); a
   * payload is one argument, so several are refused as the list they are.
   */
  handleConnection(socket: LiveSocket): void {
    for (const event of CLIENT_EVENT_NAMES) {
      socket.on(event, (...args: unknown[]) => {
        const ack = typeof args.at(-1) === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
        const payload = args.length === 1 ? args[0] : args;
        void this.events.answer(socket, event, payload).then((answer) => ack?.(answer));
      });
    }
  }
}
