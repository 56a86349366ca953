import { Controller, Inject } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { PEER_KEY, PEER_PATH, routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { iceServersFor } from './ice-servers';
import { RegistrationGate } from '../peer/registration-gate';
import { SIGNAL_CONFIG, type SignalConfig } from '../signal.config';

/**
 * What the web needs to join a session's call: ICE servers from configuration, with TURN credentials
 * of the caller's own. Only for the people of a call (the owner and the consenting participants in
 * the scope of a chat session): TURN relays cost the deployment bandwidth, and lead into whatever
 * network coturn may reach, so its credentials are no one else's to use.
 */
@Controller()
export class CallSettingsController {
  constructor(
    @Inject(SIGNAL_CONFIG) private readonly config: SignalConfig,
    private readonly gate: RegistrationGate,
  ) {}

  @Endpoint(routes.getCallSettings)
  async getCallSettings(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId }: ParsedRequestOf<'getCallSettings'>,
  ): Promise<AnswerOf<'getCallSettings'>> {
    await this.gate.requireCallMember(user, sessionId);
    const { iceServers, expiresAt } = iceServersFor(this.config, user.id);
    return {
      iceServers,
      iceTransportPolicy: this.config.ICE_TRANSPORT_POLICY,
      expiresAt,
      peerPath: PEER_PATH,
      key: PEER_KEY,
    };
  }
}
