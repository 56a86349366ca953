import {
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayConnection,
  type OnGatewayInit,
} from '@nestjs/websockets';
import { Metrics } from '@uis/kit';
import { CLIENT_EVENT_NAMES } from '@uis/proto';
import { LiveConnections } from './live-connections';
import { LiveEvents } from './live-events';
import { isSessionRoom, type LiveServer, type LiveSocket } from './live-socket';
import { SessionAccessWatch } from './session-access-watch';

/**
 * The socket.io endpoint (server options come from RealtimeIoAdapter). LiveConnections checks each
 * handshake and ends connections that are no longer allowed; each client event goes to LiveEvents,
 * which validates it, applies the session's rules and answers the acknowledgement.
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit<LiveServer>, OnGatewayConnection<LiveSocket> {
  @WebSocketServer() server!: LiveServer;

  constructor(
    private readonly events: LiveEvents,
    private readonly connections: LiveConnections,
    private readonly accessWatch: SessionAccessWatch,
    private readonly metrics: Metrics,
  ) {}

  afterInit(server: LiveServer): void {
    this.connections.bind(server);
    this.accessWatch.bind(server);
    // This replica's share, read at each scrape: the autoscaler and a dashboard sum the replicas.
    this.metrics.gauge('live_sockets', 'Live sockets connected to this replica', {
      collect() {
        this.set(server.sockets.sockets.size);
      },
    });
    this.metrics.gauge('live_rooms', 'Sessions with at least one socket on this replica', {
      collect() {
        let rooms = 0;
        for (const room of server.of('/').adapter.rooms.keys()) if (isSessionRoom(room)) rooms += 1;
        this.set(rooms);
      },
    });
  }

  /**
   * Every client event of proto's table, wired in one loop so none can be missed or misnamed. The
   * last argument is the acknowledgement when the client passed one (socket.io's convention); a
   * payload is one argument, so several are refused as the list they are.
   */
  handleConnection(socket: LiveSocket): void {
    this.connections.opened(socket);
    for (const event of CLIENT_EVENT_NAMES) {
      socket.on(event, (...args: unknown[]) => {
        const ack = typeof args.at(-1) === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
        const payload = args.length === 1 ? args[0] : args;
        void this.events.answer(socket, event, payload).then((answer) => ack?.(answer));
      });
    }
  }
}
