import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { InternalClient, Readiness, SessionAccessClient, closeRedis, openRedis, type Logger } from '@uis/kit';
import type { Redis } from 'ioredis';
import { LiveEvents } from './live/live-events';
import { LIVE_ACCESS } from './live/live-access';
import { LiveConnections } from './live/live-connections';
import { LiveSessionService } from './live/live-session.service';
import { RealtimeInternalController } from './live/realtime-internal.controller';
import { SessionAccessWatch } from './live/session-access-watch';
import { WriteLimiter } from './live/write-limiter';
import { RealtimeGateway } from './live/realtime.gateway';
import { SessionRecords } from './live/session-records';
import { REALTIME_CONFIG, type RealtimeConfig } from './realtime.config';
import { LivePresence } from './presence/live-presence';
import { MemoryPresence, PRESENCE, RedisPresence } from './presence/presence-store';
import { MemoryRoomState, ROOM_STATE, RedisRoomState } from './room-state/room-state';

/** The connection the room state uses, or null without REDIS_URL. */
const ROOM_STATE_REDIS = Symbol('ROOM_STATE_REDIS');

/** Registers the Redis probe for /ready and closes the room state's connection when the app stops. */
@Injectable()
class RoomStateRedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(ROOM_STATE_REDIS) private readonly redis: Redis | null,
    private readonly readiness: Readiness,
  ) {}

  onModuleInit(): void {
    const { redis } = this;
    if (redis) this.readiness.add('redis', () => redis.ping());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await closeRedis(this.redis);
  }
}

@Module({})
export class RealtimeModule {
  static forRoot(config: RealtimeConfig, logger: Logger): DynamicModule {
    return {
      module: RealtimeModule,
      controllers: [RealtimeInternalController],
      providers: [
        { provide: REALTIME_CONFIG, useValue: config },
        {
          provide: ROOM_STATE_REDIS,
          useFactory: () => (config.REDIS_URL ? openRedis(config.REDIS_URL, 'realtime-rooms', logger) : null),
        },
        {
          provide: ROOM_STATE,
          inject: [ROOM_STATE_REDIS],
          useFactory: (redis: Redis | null) =>
            redis ? new RedisRoomState(redis, config.REDIS_PREFIX) : new MemoryRoomState(),
        },
        {
          provide: PRESENCE,
          inject: [ROOM_STATE_REDIS],
          useFactory: (redis: Redis | null) =>
            redis ? new RedisPresence(redis, config.REDIS_PREFIX) : new MemoryPresence(),
        },
        LivePresence,
        {
          provide: LIVE_ACCESS,
          inject: [InternalClient],
          // Every live event is checked: cache misses go to studies in batches (one call, one query).
          useFactory: (internal: InternalClient) =>
            new SessionAccessClient(internal, { cacheMs: config.ACCESS_CACHE_MS, batch: true }),
        },
        RoomStateRedisLifecycle,
        LiveConnections,
        SessionAccessWatch,
        WriteLimiter,
        SessionRecords,
        LiveSessionService,
        LiveEvents,
        RealtimeGateway,
      ],
    };
  }
}
