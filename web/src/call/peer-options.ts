import type { CallSettings } from '@uis/proto';
import { PEER_DEFAULTS } from '@uis/proto/browser';
import type { PeerOptions } from 'peerjs';
import type { PageLocation } from './call-ports';

/** What every RTCPeerConnection of the call is made with. */
export const rtcConfigurationOf = (settings: CallSettings): RTCConfiguration => ({
  iceServers: settings.iceServers,
  iceTransportPolicy: settings.iceTransportPolicy,
});

export function peerOptionsFor(settings: CallSettings, location: PageLocation): PeerOptions {
  const secure = location.protocol === 'https:';
  return {
    host: location.hostname,
    port: Number(location.port) || (secure ? PEER_DEFAULTS.signallingPort : 80),
    path: settings.peerPath,
    key: settings.key,
    secure,
    config: rtcConfigurationOf(settings),
    pingInterval: PEER_DEFAULTS.heartbeatMs,
    debug: 0,
  };
}
