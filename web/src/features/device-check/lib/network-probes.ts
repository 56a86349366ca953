import type { CallSettings, IceServer } from '@uis/proto';

/** How long ICE gathering may take before an item counts as failed (a firewall drops packets silently). */
export const GATHER_WITHIN_MS = 8_000;

const urlsOf = (server: IceServer): string[] => (Array.isArray(server.urls) ? server.urls : [server.urls]);
const isTurn = (url: string) => /^turns?:/.test(url);

/** The TURN servers of the settings (with their credentials), or none. */
export const turnServers = (settings: CallSettings): IceServer[] =>
  settings.iceServers.filter((server) => urlsOf(server).some(isTurn));

/**
 * The STUN servers to ask: the configured ones, and each TURN server as a STUN server too (every
 * TURN server answers STUN's binding requests on its port).
 */
export function stunServers(settings: CallSettings): RTCIceServer[] {
  const stun = settings.iceServers.flatMap(urlsOf).filter((url) => /^stuns?:/.test(url));
  const fromTurn = turnServers(settings)
    .flatMap(urlsOf)
    .filter((url) => url.startsWith('turn:'))
    .map((url) => `stun:${url.slice('turn:'.length).split('?')[0]}`);
  return [...new Set([...stun, ...fromTurn])].map((urls) => ({ urls }));
}

/**
 * The candidate types a throw-away peer connection gathers with `config`, until gathering ends, a
 * candidate of type `wanted` arrives, or GATHER_WITHIN_MS pass. A data channel gives it something
 * to gather for; nothing is ever sent.
 */
export async function gatherCandidateTypes(
  config: RTCConfiguration,
  wanted: RTCIceCandidateType,
): Promise<Set<RTCIceCandidateType>> {
  const types = new Set<RTCIceCandidateType>();
  const connection = new RTCPeerConnection(config);
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, GATHER_WITHIN_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      connection.onicecandidate = ({ candidate }) => {
        if (!candidate) return done();
        if (candidate.type) types.add(candidate.type);
        if (candidate.type === wanted) done();
      };
      connection.createDataChannel('device-check');
      void connection
        .createOffer()
        .then((offer) => connection.setLocalDescription(offer))
        .catch(done);
    });
  } finally {
    connection.close();
  }
  return types;
}

/** The round trip to the server (ms): the median of `times` timed calls of `request`. */
export async function roundTripMs(request: () => Promise<unknown>, times = 3): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await request();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]!);
}
