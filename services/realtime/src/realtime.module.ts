import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { InternalClient, Readiness, SessionAccessClient, type Logger } from '@uis/kit';
import type { Redis } from 'ioredis';
import { LiveEvents } from './live/live-events';
import { LIVE_ACCESS, LiveSessionService } from './live/live-session.service';
import { RealtimeGateway } from './live/realtime.gateway';
import { SessionRecords } from './live/session-records';
import { REALTIME_CONFIG, type RealtimeConfig } from './realtime.config';
import { closeRedis, openRedis } from './redis-connection';
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
          provide: LIVE_ACCESS,
          inject: [InternalClient],
          useFactory: (internal: InternalClient) => new SessionAccessClient(internal, config.ACCESS_CACHE_MS),
        },
        RoomStateRedisLifecycle,
        SessionRecords,
        LiveSessionService,
        LiveEvents,
        RealtimeGateway,
      ],
    };
  }
}
