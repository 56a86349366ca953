import { Inject } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayInit,
} from '@nestjs/websockets';
import { JWT_SECRET } from '@uis/kit';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { handshakeMiddleware } from '../transport/handshake';
import { LiveEvents } from './live-events';
import type { LiveServer, LiveSocket } from './live-socket';

/**
 * The socket.io endpoint (server options come from RealtimeIoAdapter). Each client event is one
 * line into LiveEvents, which validates it and applies the session's rules.
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit<LiveServer> {
  @WebSocketServer() server!: LiveServer;

  constructor(
    private readonly events: LiveEvents,
    @Inject(JWT_SECRET) private readonly jwtSecret: string,
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
  ) {}

  afterInit(server: LiveServer): void {
    server.use(handshakeMiddleware(this.jwtSecret, this.config.allowedOrigins));
  }

  @SubscribeMessage('initMessage')
  initMessage(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'initMessage', payload);
  }

  @SubscribeMessage('sync')
  sync(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'sync', payload);
  }

  @SubscribeMessage('message')
  message(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'message', payload);
  }

  @SubscribeMessage('videoStatus')
  videoStatus(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'videoStatus', payload);
  }

  @SubscribeMessage('syncVideoStatus')
  syncVideoStatus(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'syncVideoStatus', payload);
  }

  @SubscribeMessage('toggleParticipantClicks')
  toggleParticipantClicks(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'toggleParticipantClicks', payload);
  }

  @SubscribeMessage('clickVideo')
  clickVideo(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'clickVideo', payload);
  }

  @SubscribeMessage('joinVideoChat')
  joinVideoChat(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'joinVideoChat', payload);
  }

  @SubscribeMessage('syncVideoChat')
  syncVideoChat(@ConnectedSocket() socket: LiveSocket, @MessageBody() payload: unknown) {
    return this.events.answer(socket, 'syncVideoChat', payload);
  }
}
