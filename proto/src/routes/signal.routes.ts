import { z } from 'zod';
import { PEER_KEY, PEER_PATH } from '../constants';
import { defineRoutes } from '../route';

const IceUrl = z.string().regex(/^(stuns?|turns?):\S+$/, 'must start with stun:, stuns:, turn: or turns:');
const isTurnUrl = (url: string) => /^turns?:/.test(url);

/**
 * One STUN or TURN server, as the browser's RTCIceServer takes it. A TURN server needs a username
 * and a credential (the browser refuses the whole configuration otherwise). Unknown keys are refused,
 * so a misspelt `credentials` is an error rather than a silently missing password.
 */
export const IceServer = z
  .strictObject({
    urls: z.union([IceUrl, z.array(IceUrl).min(1, 'must name at least one URL')], {
      error: 'must be a stun:/turn: URL or a list of them',
    }),
    username: z.string().min(1, 'must not be empty').optional(),
    credential: z.string().min(1, 'must not be empty').optional(),
  })
  .refine(
    ({ urls, username, credential }) =>
      !(Array.isArray(urls) ? urls : [urls]).some(isTurnUrl) || (username && credential),
    { message: 'a TURN server needs a username and a credential' },
  );
export type IceServer = z.infer<typeof IceServer>;

/** What the web needs to join the chat call: where PeerJS runs, and the ICE servers to use. */
export const CallSettings = z.object({
  /** STUN/TURN servers for RTCPeerConnection; empty means host candidates only (same network). */
  iceServers: z.array(IceServer),
  /** The PeerJS server's path on the signalling host (spec section 7). */
  peerPath: z.literal(PEER_PATH),
  /** PeerJS's API key on that server. */
  key: z.literal(PEER_KEY),
});
export type CallSettings = z.infer<typeof CallSettings>;

export const signalRoutes = defineRoutes({
  getCallSettings: {
    method: 'GET',
    path: '/getCallSettings',
    service: 'signal',
    access: 'user',
    extension: true,
    summary:
      "The chat call's settings: the ICE servers (STUN/TURN) the signalling service is configured with (ICE_SERVERS; none by default), the PeerJS path and key. The spec builds public STUN and TURN servers into the client; serving them from configuration lets a deployment use its own TURN server, and only to signed-in users, without a rebuild.",
    request: z.object({}),
    answer: CallSettings,
  },
});
