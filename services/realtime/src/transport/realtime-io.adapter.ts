import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Logger } from '@uis/kit';
import { REALTIME_PATH, REALTIME_TRANSPORTS } from '@uis/proto';
import { createAdapter as createPubSubAdapter } from '@socket.io/redis-adapter';
import { createAdapter as createStreamsAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { openRedis } from '@uis/kit';
import type { RealtimeConfig } from '../realtime.config';

/** Largest frame a client may send: a chat message is at most 2000 characters (8 KB in UTF-8). */
export const MAX_FRAME_BYTES = 64 * 1024;

/**
 * How long a dropped client's rooms and missed broadcasts are kept for it (connection state
 * recovery). The client asks for the full list on every reconnect anyway; recovery spares it the
 * gap in between and works on any replica with the streams adapter.
 */
export const RECOVERY_WINDOW_MS = 2 * 60 * 1000;

/** The socket.io server options of the spec (section 7): path /socket.io/, WebSocket only. */
export const serverOptions = (): Partial<ServerOptions> => ({
  path: REALTIME_PATH,
  transports: [...REALTIME_TRANSPORTS],
  serveClient: false,
  maxHttpBufferSize: MAX_FRAME_BYTES,
  connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_WINDOW_MS, skipMiddlewares: false },
});

/**
 * Nest's socket.io adapter with our server options, on the app's own HTTP server, sharing rooms
 * through Redis when REDIS_URL is set (README: why the streams adapter) and in memory otherwise.
 * It owns the adapter's Redis connection and closes it after the server.
 */
export class RealtimeIoAdapter extends IoAdapter {
  private readonly connections: Redis[] = [];

  constructor(
    app: INestApplicationContext,
    private readonly config: RealtimeConfig,
    private readonly logger: Logger,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: Partial<ServerOptions>): Server {
    const server = super.createIOServer(port, { ...options, ...serverOptions() }) as Server;
    if (this.config.REDIS_URL) server.adapter(this.redisAdapter(this.config.REDIS_URL));
    return server;
  }

  /** After the server closed: nothing is left to publish, so the connections end at once. */
  override dispose(): Promise<void> {
    for (const connection of this.connections.splice(0)) connection.disconnect();
    return Promise.resolve();
  }

  private redisAdapter(url: string): NonNullable<ServerOptions['adapter']> {
    const prefix = this.config.REDIS_PREFIX;
    const main = openRedis(url, `realtime-adapter`, this.logger);
    this.connections.push(main);
    // The streams adapter opens more connections with duplicate() and ends its reader only once the
    // reader's blocking XREAD returns (up to 5 s after close); tracked here, they end with the app.
    const duplicate = main.duplicate.bind(main);
    main.duplicate = (...args: Parameters<Redis['duplicate']>) => {
      const copy = duplicate(...args);
      this.connections.push(copy);
      return copy;
    };
    if (this.config.REDIS_ADAPTER === 'streams') {
      return createStreamsAdapter(main, {
        streamName: `${prefix}:stream`,
        channelPrefix: prefix,
        sessionKeyPrefix: `${prefix}:recovery:`,
        onlyPlaintext: true,
      });
    }
    const subscriber = main.duplicate();
    subscriber.on('error', () => undefined); // reported once by `main`'s handler: same server
    return createPubSubAdapter(main, subscriber, { key: prefix });
  }
}
