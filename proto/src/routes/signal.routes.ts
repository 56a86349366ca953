import { z } from 'zod';
import { PEER_PATH } from '../constants';
import { PEER_KEY } from '../peer-ids';
import { id } from '../fields';
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

/**
 * Which candidates the browsers may use (RTCConfiguration's iceTransportPolicy): `all`, or `relay`
 * only, through the TURN server: slower, but no participant learns another's network address.
 */
export const ICE_TRANSPORT_POLICIES = ['all', 'relay'] as const;
export type IceTransportPolicy = (typeof ICE_TRANSPORT_POLICIES)[number];

/** What the web needs to join the chat call: where PeerJS runs, and the ICE servers to use. */
export const CallSettings = z.object({
  /**
   * STUN/TURN servers for RTCPeerConnection; empty means host candidates only (same network). A
   * TURN server of the deployment's own comes with this caller's short-lived credentials.
   */
  iceServers: z.array(IceServer),
  iceTransportPolicy: z.enum(ICE_TRANSPORT_POLICIES),
  /** Epoch ms when the TURN credentials in `iceServers` stop working (ask again before); null: none expire. */
  expiresAt: z.number().int().nullable(),
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
      "The chat call's settings for one chat session, to its owner and the participants in its scope who agreed to its consent text (403 for any other session or person): the ICE servers (ICE_SERVERS; by default the public STUN and TURN servers the spec names), with the deployment's own TURN server (TURN_URLS) and this caller's credentials for it (coturn's shared-secret scheme: valid for TURN_CREDENTIAL_TTL_SECONDS, never a static password), the ICE transport policy, the PeerJS path and key. The spec builds public servers into the client; serving them from configuration lets a deployment use its own TURN server, and only to the people of a session, without a rebuild.",
    request: z.object({ sessionId: id() }),
    answer: CallSettings,
  },
});
