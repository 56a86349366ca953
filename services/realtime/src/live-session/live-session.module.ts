import { Module } from '@nestjs/common';
import { InternalClient, SessionAccessClient } from '@uis/kit';
import { ExposureModule } from '../exposure/exposure.module';
import { PresenceModule } from '../presence/presence.module';
import { REALTIME_CONFIG, type RealtimeConfig } from '../realtime.config';
import { RoomStateModule } from '../room-state/room-state.module';
import { LIVE_ACCESS } from './live-access';
import { LiveConnections } from './live-connections';
import { LiveEvents } from './live-events';
import { LiveSessionInternalController } from './live-session.internal.controller';
import { LiveSessionService } from './live-session.service';
import { RealtimeGateway } from './realtime.gateway';
import { SessionAccessWatch } from './session-access-watch';
import { SessionRecords } from './session-records';
import { WriteLimiter } from './write-limiter';

/** The live-session protocol: connections, the events and their rules, and studies' access notices. */
@Module({
  imports: [RoomStateModule, PresenceModule, ExposureModule],
  controllers: [LiveSessionInternalController],
  providers: [
    {
      provide: LIVE_ACCESS,
      inject: [InternalClient, REALTIME_CONFIG],
      // Every live event is checked: cache misses go to studies in batches (one call, one query).
      useFactory: (internal: InternalClient, config: RealtimeConfig) =>
        new SessionAccessClient(internal, { cacheMs: config.ACCESS_CACHE_MS, batch: true }),
    },
    LiveConnections,
    SessionAccessWatch,
    WriteLimiter,
    SessionRecords,
    LiveSessionService,
    LiveEvents,
    RealtimeGateway,
  ],
})
export class LiveSessionModule {}
