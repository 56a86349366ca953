import { Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { LOGGER, Readiness, closeRedis, openRedis, type Logger } from '@uis/kit';
import type { Redis } from 'ioredis';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { MemoryRoomState, ROOM_STATE, RedisRoomState } from './room-state';

/** The connection the room state (and presence) uses, or null without REDIS_URL. */
export const ROOM_STATE_REDIS = Symbol('ROOM_STATE_REDIS');

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

/** What a live session's room holds across replicas (status, prompts fired, clicks), in Redis or memory. */
@Module({
  providers: [
    {
      provide: ROOM_STATE_REDIS,
      inject: [REALTIME_CONFIG, LOGGER],
      useFactory: (config: RealtimeConfig, logger: Logger) =>
        config.REDIS_URL ? openRedis(config.REDIS_URL, 'realtime-rooms', logger) : null,
    },
    {
      provide: ROOM_STATE,
      inject: [ROOM_STATE_REDIS, REALTIME_CONFIG],
      useFactory: (redis: Redis | null, config: RealtimeConfig) =>
        redis ? new RedisRoomState(redis, config.REDIS_PREFIX) : new MemoryRoomState(),
    },
    RoomStateRedisLifecycle,
  ],
  exports: [ROOM_STATE_REDIS, ROOM_STATE],
})
export class RoomStateModule {}
