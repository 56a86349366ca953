import { Module } from '@nestjs/common';
import { AdmittedPeers } from './admitted-peers';
import { PeerInternalController } from './peer.internal.controller';
import { PeerSignalling } from './peer-signalling';
import { RegistrationGate } from './registration-gate';

/** The PeerJS server: who may register a peer id, the admitted peers, and studies' access notices. */
@Module({
  controllers: [PeerInternalController],
  providers: [RegistrationGate, AdmittedPeers, PeerSignalling],
  exports: [RegistrationGate, PeerSignalling],
})
export class PeerModule {}
