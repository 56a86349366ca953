import { Controller, Inject } from '@nestjs/common';
import { Endpoint } from '@uis/kit';
import { PEER_KEY, PEER_PATH, routes, type AnswerOf } from '@uis/proto';
import { SIGNAL_CONFIG, type SignalConfig } from './signal.config';

/** What the web needs to join the chat call; ICE servers come from configuration (ICE_SERVERS). */
@Controller()
export class CallSettingsController {
  constructor(@Inject(SIGNAL_CONFIG) private readonly config: SignalConfig) {}

  @Endpoint(routes.getCallSettings)
  getCallSettings(): AnswerOf<'getCallSettings'> {
    return { iceServers: this.config.ICE_SERVERS, peerPath: PEER_PATH, key: PEER_KEY };
  }
}
