import { PEER_DEFAULTS } from './constants';

// Its own module, not constants.ts: the login route's bundle carries everything constants.ts holds
// that any screen uses, and only the live screens use these.

/** PeerJS's API key on the signalling server: the PeerJS client's default, so clients need not set it. */
export const PEER_KEY = 'peerjs';
/**
 * The signalling server forgets a peer that sent no heartbeat for this long (three missed
 * heartbeats): its id is free again and offers to it expire instead of waiting.
 */
export const PEER_ALIVE_TIMEOUT_MS = 3 * PEER_DEFAULTS.heartbeatMs;
/** Most characters of the optional per-page part of a peer id. */
export const PEER_INSTANCE_MAX_CHARS = 16;

const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PEER_ID_PARTS = new RegExp(
  `^(${UUID_PATTERN})_(${UUID_PATTERN})(?:_([A-Za-z0-9]{1,${PEER_INSTANCE_MAX_CHARS}}))?$`,
);

/** What a chat-call peer id says: whose it is, in which session, and which page of theirs. */
export interface PeerIdParts {
  sessionId: string;
  userId: string;
  instance?: string;
}

/**
 * The peer id a user registers in a chat session: `<sessionId>_<userId>`, optionally `_<instance>`
 * (1 to 16 letters or digits, e.g. random per page, so two tabs of one user can both be in the call).
 * The signalling server accepts an id only from the user it names and only for a chat session that
 * user belongs to, so nobody can take over someone else's id. It matches PEER_ID_PATTERN.
 */
export const peerIdFor = (sessionId: string, userId: string, instance?: string): string => {
  const peerId = [sessionId.toLowerCase(), userId.toLowerCase(), ...(instance ? [instance] : [])].join('_');
  if (!PEER_ID_PARTS.test(peerId)) {
    throw new Error(
      `peerIdFor needs two ids and an instance of at most ${PEER_INSTANCE_MAX_CHARS} letters or digits`,
    );
  }
  return peerId;
};

/** The parts of a chat-call peer id, or null for an id that is not one. */
export const parsePeerId = (peerId: string): PeerIdParts | null => {
  const match = PEER_ID_PARTS.exec(peerId);
  if (!match) return null;
  const [, sessionId = '', userId = '', instance] = match;
  return instance === undefined ? { sessionId, userId } : { sessionId, userId, instance };
};
