import { Module, type DynamicModule } from '@nestjs/common';
import { CallSettingsController } from './call-settings.controller';
import { AdmittedPeers } from './peer/admitted-peers';
import { PeerSignalling } from './peer/peer-signalling';
import { SignalInternalController } from './signal-internal.controller';
import { RegistrationGate } from './peer/registration-gate';
import { SIGNAL_CONFIG, type SignalConfig } from './signal.config';

@Module({})
export class SignalModule {
  static forRoot(config: SignalConfig): DynamicModule {
    return {
      module: SignalModule,
      controllers: [CallSettingsController, SignalInternalController],
      providers: [
        { provide: SIGNAL_CONFIG, useValue: config },
        RegistrationGate,
        AdmittedPeers,
        PeerSignalling,
      ],
    };
  }
}
