import { Module, type DynamicModule } from '@nestjs/common';
import { CallSettingsModule } from './call-settings/call-settings.module';
import { PeerModule } from './peer/peer.module';
import { SIGNAL_CONFIG, type SignalConfig } from './signal.config';

/** Signal: its config (for every feature) and one module per feature. */
@Module({})
export class SignalModule {
  static forRoot(config: SignalConfig): DynamicModule {
    const configProvider = { provide: SIGNAL_CONFIG, useValue: config };
    return {
      module: SignalModule,
      global: true,
      imports: [PeerModule, CallSettingsModule],
      providers: [configProvider],
      exports: [configProvider],
    };
  }
}
