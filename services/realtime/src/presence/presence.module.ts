import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { ROOM_STATE_REDIS, RoomStateModule } from '../room-state/room-state.module';
import { LivePresence } from './live-presence';
import { MemoryPresence, PRESENCE, RedisPresence } from './presence-store';

/** Who is in a live session on any replica: the researcher's monitor. */
@Module({
  imports: [RoomStateModule],
  providers: [
    {
      provide: PRESENCE,
      inject: [ROOM_STATE_REDIS, REALTIME_CONFIG],
      useFactory: (redis: Redis | null, config: RealtimeConfig) =>
        redis ? new RedisPresence(redis, config.REDIS_PREFIX) : new MemoryPresence(),
    },
    LivePresence,
  ],
  exports: [PRESENCE, LivePresence],
})
export class PresenceModule {}
