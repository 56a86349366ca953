import { randomUUID } from 'node:crypto';
import { PEER_ID_PATTERN } from '../src/constants';
import { parsePeerId, peerIdFor } from '../src/peer-ids';
import { peerId } from '../src/events';
import { CallSettings, IceServer } from '../src/routes/signal.routes';

describe('chat-call peer ids', () => {
  const sessionId = randomUUID();
  const userId = randomUUID();

  it('are <sessionId>_<userId>, optionally _<instance>, and parse back', () => {
    expect(peerIdFor(sessionId, userId)).toBe(`${sessionId}_${userId}`);
    expect(parsePeerId(peerIdFor(sessionId, userId))).toEqual({ sessionId, userId });
    expect(parsePeerId(peerIdFor(sessionId, userId, 'tab7Q'))).toEqual({
      sessionId,
      userId,
      instance: 'tab7Q',
    });
  });

  it('are valid PeerJS ids and valid joinVideoChat ids', () => {
    const id = peerIdFor(sessionId, userId, 'A1b2C3d4E5f6G7h8');
    expect(PEER_ID_PATTERN.test(id)).toBe(true);
    expect(peerId().safeParse(id).success).toBe(true);
  });

  it('are written in lower case whatever case the ids come in', () => {
    expect(peerIdFor(sessionId.toUpperCase(), userId.toUpperCase())).toBe(`${sessionId}_${userId}`);
  });

  it('refuse parts that would not parse back', () => {
    expect(() => peerIdFor('session', userId)).toThrow();
    expect(() => peerIdFor(sessionId, userId, 'has-dash')).toThrow();
    expect(() => peerIdFor(sessionId, userId, 'x'.repeat(17))).toThrow();
  });

  it.each([
    ['empty', ''],
    ['a random PeerJS id', randomUUID()],
    ['one id twice joined by a dash', `${sessionId}-${userId}`],
    ['upper-case ids', `${sessionId.toUpperCase()}_${userId}`],
    ['an empty instance', `${sessionId}_${userId}_`],
    ['an instance with a space', `${sessionId}_${userId}_a b`],
    ['trailing text', `${sessionId}_${userId}_abc_def`],
  ])('parse %s as not a chat-call id', (_, id) => {
    expect(parsePeerId(id)).toBeNull();
  });
});

describe('ICE servers', () => {
  it.each([
    [{ urls: 'stun:stun.example.org:3478' }],
    [{ urls: ['stun:a.example.org', 'stuns:b.example.org:5349'] }],
    [{ urls: 'turn:turn.example.org:3478?transport=udp', username: 'u', credential: 'p' }],
    [{ urls: ['stun:a.example.org', 'turns:b.example.org'], username: 'u', credential: 'p' }],
  ])('accept %j', (server) => {
    expect(IceServer.safeParse(server).success).toBe(true);
  });

  it.each([
    ['an http URL', { urls: 'http://stun.example.org' }],
    ['no URL', { urls: [] }],
    ['a TURN server without a credential', { urls: 'turn:t.example.org', username: 'u' }],
    ['a TURN server in a list without a username', { urls: ['stun:s.example.org', 'turns:t.example.org'] }],
    ['a misspelt key', { urls: 'turn:t.example.org', username: 'u', credentials: 'p' }],
    ['a bare string', 'stun:stun.example.org'],
  ])('refuse %s', (_, server) => {
    expect(IceServer.safeParse(server).success).toBe(false);
  });

  it('are part of the call settings with the transport policy, their expiry, the PeerJS path and key', () => {
    const settings = {
      iceServers: [],
      iceTransportPolicy: 'relay',
      expiresAt: null,
      peerPath: '/stream',
      key: 'peerjs',
    };
    expect(CallSettings.parse(settings)).toEqual(settings);
    expect(CallSettings.safeParse({ ...settings, peerPath: '/other' }).success).toBe(false);
    expect(CallSettings.safeParse({ ...settings, iceTransportPolicy: 'direct' }).success).toBe(false);
  });
});
