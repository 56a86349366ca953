import { Module, type DynamicModule } from '@nestjs/common';
import { LiveSessionModule } from './live-session/live-session.module';
import { PresenceModule } from './presence/presence.module';
import { REALTIME_CONFIG, type RealtimeConfig } from './realtime.config';
import { RoomStateModule } from './room-state/room-state.module';

/** Realtime: its config (for every feature) and one module per feature. */
@Module({})
export class RealtimeModule {
  static forRoot(config: RealtimeConfig): DynamicModule {
    const configProvider = { provide: REALTIME_CONFIG, useValue: config };
    return {
      module: RealtimeModule,
      global: true,
      imports: [RoomStateModule, PresenceModule, LiveSessionModule],
      providers: [configProvider],
      exports: [configProvider],
    };
  }
}
