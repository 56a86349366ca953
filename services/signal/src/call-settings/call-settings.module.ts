import { Module } from '@nestjs/common';
import { PeerModule } from '../peer/peer.module';
import { CallSettingsController } from './call-settings.controller';

/** /getCallSettings: the ICE servers and TURN credentials of a call's people. */
@Module({
  imports: [PeerModule],
  controllers: [CallSettingsController],
})
export class CallSettingsModule {}
