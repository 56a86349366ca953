import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { AdmittedPeers } from './admitted-peers';

/** Service-to-service endpoints (service token only): studies' notices about who may be in sessions. */
@Controller()
export class PeerInternalController {
  constructor(private readonly peers: AdmittedPeers) {}

  @InternalEndpoint(internalRoutes.signalSessionAccessChanged)
  async sessionAccessChanged(
    @Input() { sessionIds, deleted }: ParsedInternalRequestOf<'signalSessionAccessChanged'>,
  ): Promise<InternalAnswerOf<'signalSessionAccessChanged'>> {
    await this.peers.sessionAccessChanged(sessionIds, deleted);
    return { message: 'Peers of those sessions checked.' };
  }
}
