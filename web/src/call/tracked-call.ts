import type { CallConnection } from './call-ports';
import type { RemoteParty } from './call-state';
import type { Timer } from './call-timers';

/** One call under way, as LiveCall keeps it. */
export interface TrackedCall {
  connection: CallConnection;
  remote: RemoteParty;
  answered: boolean;
  /**
   * The TURN server answered an allocation with an error (bad or expired credentials, no room) and
   * gave no relay candidate: an error alone may be one of several servers or transports.
   */
  relayRefused: boolean;
  relayGathered: boolean;
  /** Hung up by this page: no redial follows. */
  hungUp: boolean;
  timers: Set<Timer>;
}

/** A call just placed or answered: connecting, with no stream yet. */
export const trackedCall = (connection: CallConnection, name: string): TrackedCall => ({
  connection,
  remote: {
    key: connection.connectionId,
    peerId: connection.peer,
    name,
    stream: null,
    link: 'connecting',
  },
  answered: false,
  relayRefused: false,
  relayGathered: false,
  hungUp: false,
  timers: new Set(),
});

const isTurnRefusal = (event: RTCPeerConnectionIceErrorEvent) =>
  /^turns?:/.test(event.url) && event.errorCode >= 400 && event.errorCode < 700;

/**
 * The call's transport, as the browser reports it: how it connects, and why it cannot.
 * `noCandidate`: gathering ended without one candidate (relay only, and the relay said no).
 */
export function watchTransport(tracked: TrackedCall, noCandidate: () => void): void {
  const pc = tracked.connection.peerConnection;
  if (!pc) return;
  let candidates = 0;
  pc.addEventListener('icecandidate', (event) => {
    const candidate = event.candidate?.candidate;
    if (!candidate) return;
    candidates += 1;
    if (/ typ relay( |$)/.test(candidate)) tracked.relayGathered = true;
  });
  pc.addEventListener('icecandidateerror', (event) => {
    if (isTurnRefusal(event)) tracked.relayRefused = true;
  });
  pc.addEventListener('icegatheringstatechange', () => {
    // Gathering done without one candidate: nothing can connect.
    if (pc.iceGatheringState === 'complete' && candidates === 0) noCandidate();
  });
}
