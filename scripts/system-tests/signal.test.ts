import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { ERROR_CODES, peerIdFor, routes } from '@uis/proto';
import { testPeople } from '@uis/kit/testing';
import { PEER_END_REASONS, PEER_MESSAGE_MAX_BYTES } from '@uis/signal';
import { registerPeer, type PeerAttempt, type PeerConnection } from '@uis/signal/testing';
import { signUp, startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * PeerJS registration against the composed services: real sign-ups (auth), sessions made through
 * the REST API (studies, which answers signal's access checks), and signal listening on a port of
 * its own as in `npm start`, reached over real WebSockets.
 */

const ICE_SERVERS = [{ urls: 'stun:stun.example.org:3478' }];

describe('PeerJS registration in chat sessions', () => {
  let stack: ComposedStack;
  let signal: INestApplication;
  let base: string;
  const people: Record<string, { id: string; email: string; token: string; refreshToken: string }> = {};
  let chatSession: string;
  let otherChatSession: string;
  let videoSession: string;

  const as = (who: string) => ({ authorization: `Bearer ${people[who]!.token}` });
  const call = async (who: string, route: { method: string; path: string }, input: object) => {
    const req =
      route.method === 'GET'
        ? stack.http().get(route.path).query(input)
        : stack.http().post(route.path).send(input);
    const res = await req.set(as(who));
    if (res.status !== 200) throw new Error(`${route.path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { res: Record<string, unknown> }).res;
  };
  const newSession = async (groupId: string, edit: object) => {
    const { session } = (await call('olga', routes.createSession, { groupId })) as {
      session: { session_id: string };
    };
    await call('olga', routes.editSessionInfo, { sessionId: session.session_id, ...edit });
    return session.session_id;
  };

  /** Registers `who` (a browser would send the cookie; `bearer` is the other way in). */
  const register = (who: string, peerId: string, via: 'cookie' | 'bearer' = 'cookie') =>
    registerPeer(
      base,
      peerId,
      via === 'cookie' ? { cookie: people[who]!.token } : { bearer: people[who]!.token },
    );

  const open = new Set<PeerConnection>();
  /** A registration that must succeed; PeerJS's first word is OPEN. */
  const connect = async (who: string, peerId: string, via: 'cookie' | 'bearer' = 'cookie') => {
    const attempt = await register(who, peerId, via);
    if (attempt.kind !== 'connected') throw new Error(`${who} refused: ${JSON.stringify(attempt)}`);
    open.add(attempt.peer);
    expect(await attempt.peer.next()).toEqual({ type: 'OPEN' });
    return attempt.peer;
  };
  const expectRefused = (attempt: PeerAttempt, status: number, code: string) => {
    if (attempt.kind === 'connected') open.add(attempt.peer);
    expect(attempt).toMatchObject({ kind: 'refused', status, body: { status: 'ERROR', res: { code } } });
  };

  beforeAll(async () => {
    stack = await startComposedStack('signal', { ICE_SERVERS: JSON.stringify(ICE_SERVERS) });
    signal = stack.apps.get('signal')!;
    // As `npm start` does: signal's own port (PeerJS needs the WebSocket upgrade on its server).
    await signal.listen(0, '127.0.0.1');
    base = (await signal.getUrl()).replace('[::1]', '127.0.0.1');

    for (const who of ['olga', 'pat', 'pia', 'otto']) {
      const type = who === 'olga' ? 'researcher' : 'participant';
      const { user, token, refreshToken } = await signUp(stack, `${who}@signal.test`, who, type);
      people[who] = { id: user.id, email: user.email, token, refreshToken };
    }

    const { group } = (await call('olga', routes.createGroup, {})) as { group: { group_id: string } };
    const scope = [people.pat!.email, people.pia!.email];
    chatSession = await newSession(group.group_id, { type: 'chat', scope });
    otherChatSession = await newSession(group.group_id, { type: 'chat', scope: [people.otto!.email] });
    videoSession = await newSession(group.group_id, { type: 'video', scope });
  }, 60_000);

  afterEach(async () => {
    await Promise.all([...open].map((peer) => peer.close()));
    open.clear();
  });

  afterAll(() => stack?.close());

  const idOf = (who: string, sessionId = chatSession, instance?: string) =>
    peerIdFor(sessionId, people[who]!.id, instance);

  it('lets a signed-in participant of a chat session register (cookie, as a browser does)', async () => {
    await connect('pat', idOf('pat'));
  });

  it("lets a participant register from the product's own page (its Origin, with the cookie)", async () => {
    const attempt = await registerPeer(
      base,
      peerIdFor(chatSession, people.pat!.id, 'page'),
      { cookie: people.pat!.token },
      { origin: new URL(stack.env.PUBLIC_URL!).origin },
    );
    if (attempt.kind !== 'connected') throw new Error(`refused: ${JSON.stringify(attempt)}`);
    open.add(attempt.peer);
    expect(await attempt.peer.next()).toEqual({ type: 'OPEN' });
  });

  it("lets the session's owner register (Authorization header, as other clients do)", async () => {
    await connect('olga', idOf('olga'), 'bearer');
  });

  it('lets one user be in the call from two pages, each with its own instance', async () => {
    await connect('pat', idOf('pat', chatSession, 'tab1'));
    await connect('pat', idOf('pat', chatSession, 'tab2'));
  });

  it('refuses a user outside the scope: 403', async () => {
    expectRefused(await register('otto', idOf('otto')), 403, ERROR_CODES.FORBIDDEN);
  });

  it('refuses a session that is not a chat session: 403', async () => {
    expectRefused(await register('pat', idOf('pat', videoSession)), 403, ERROR_CODES.FORBIDDEN);
    expectRefused(await register('olga', idOf('olga', videoSession)), 403, ERROR_CODES.FORBIDDEN);
  });

  it('refuses a session that does not exist: 404', async () => {
    expectRefused(await register('pat', idOf('pat', randomUUID())), 404, ERROR_CODES.NOT_FOUND);
  });

  it('refuses an unauthenticated registration: 401', async () => {
    expectRefused(await registerPeer(base, idOf('pat'), null), 401, ERROR_CODES.UNAUTHENTICATED);
  });

  it("never lets anyone take over someone else's id, while its owner is connected or after", async () => {
    const pats = await connect('pat', idOf('pat'));
    expectRefused(await register('pia', idOf('pat')), 403, ERROR_CODES.FORBIDDEN);
    expectRefused(await register('olga', idOf('pat')), 403, ERROR_CODES.FORBIDDEN);

    await pats.close();
    open.delete(pats);
    expectRefused(await register('pia', idOf('pat')), 403, ERROR_CODES.FORBIDDEN);
    expectRefused(await register('pia', idOf('pat', chatSession, 'tab1')), 403, ERROR_CODES.FORBIDDEN);
    // Its owner gets it back.
    await connect('pat', idOf('pat'));
  });

  it('relays signalling between peers of one session', async () => {
    const olga = await connect('olga', idOf('olga'));
    const pat = await connect('pat', idOf('pat'));
    olga.send({ type: 'OFFER', dst: idOf('pat'), payload: { sdp: 'v=0' } });
    expect(await pat.next()).toEqual({
      type: 'OFFER',
      src: idOf('olga'),
      dst: idOf('pat'),
      payload: { sdp: 'v=0' },
    });
    pat.send({ type: 'ANSWER', dst: idOf('olga'), payload: { sdp: 'v=0 answer' } });
    expect(await olga.next()).toMatchObject({ type: 'ANSWER', src: idOf('pat') });
  });

  it('does not relay to a peer of another session; the sender hears it expired', async () => {
    const olga = await connect('olga', idOf('olga'));
    const otto = await connect('otto', idOf('otto', otherChatSession));
    otto.send({ type: 'OFFER', dst: idOf('olga'), payload: { sdp: 'v=0' } });
    expect(await otto.next()).toEqual({
      type: 'EXPIRE',
      src: idOf('olga'),
      dst: idOf('otto', otherChatSession),
    });
    expect(await olga.next(300)).toBeNull();
    // Not even to an id that is not a chat-call id (no queue builds up for it).
    otto.send({ type: 'CANDIDATE', dst: randomUUID(), payload: {} });
    expect((await otto.next())?.type).toBe('EXPIRE');
  });

  it('checks the scope at every registration: a participant taken out of it is refused next time', async () => {
    const session = await newSession(
      ((await call('olga', routes.createGroup, {})) as { group: { group_id: string } }).group.group_id,
      { type: 'chat', scope: [people.pia!.email] },
    );
    const pia = await connect('pia', idOf('pia', session));
    await pia.close();
    await call('olga', routes.editSessionInfo, { sessionId: session, scope: [people.pat!.email] });
    expectRefused(await register('pia', idOf('pia', session)), 403, ERROR_CODES.FORBIDDEN);
  });

  describe('ends registrations that are no longer allowed, at once', () => {
    const freshChat = async (scope: string[]) =>
      newSession(
        ((await call('olga', routes.createGroup, {})) as { group: { group_id: string } }).group.group_id,
        { type: 'chat', scope },
      );
    const stillOpen = (peer: PeerConnection) => expect(peer.socket.readyState).toBe(peer.socket.OPEN);

    it('a participant taken out of the scope (studies tells signal), not the others', async () => {
      const session = await freshChat([people.pia!.email, people.pat!.email]);
      const pia = await connect('pia', idOf('pia', session));
      const pat = await connect('pat', idOf('pat', session));
      await call('olga', routes.editSessionInfo, { sessionId: session, scope: [people.pat!.email] });
      expect(await pia.closed).toEqual({ code: 1008, reason: PEER_END_REASONS.removed });
      stillOpen(pat);
    });

    it('everyone of a session that is deleted, or that is no longer a chat', async () => {
      const deleted = await freshChat([people.pat!.email]);
      const switched = await freshChat([people.pat!.email]);
      const inDeleted = await connect('pat', idOf('pat', deleted));
      const inSwitched = await connect('pat', idOf('pat', switched));
      await call('olga', routes.deleteSession, { sessionId: deleted });
      await call('olga', routes.editSessionInfo, { sessionId: switched, type: 'video' });
      expect(await inDeleted.closed).toEqual({ code: 1008, reason: PEER_END_REASONS.deleted });
      expect(await inSwitched.closed).toEqual({ code: 1008, reason: PEER_END_REASONS.removed });
    });

    it('a login that signs out, and a token that expires', async () => {
      const session = await freshChat([people.pia!.email]);
      const pia = await signUp(stack, `pia-${randomUUID().slice(0, 8)}@signal.test`, 'Pia again');
      await call('olga', routes.editSessionInfo, { sessionId: session, scope: [pia.user.email] });
      const attempt = await registerPeer(base, peerIdFor(session, pia.user.id), { cookie: pia.token });
      if (attempt.kind !== 'connected') throw new Error(`refused: ${JSON.stringify(attempt)}`);
      open.add(attempt.peer);
      await stack.api.ok('logout', { refreshToken: pia.refreshToken });
      expect(await attempt.peer.closed).toEqual({ code: 1008, reason: PEER_END_REASONS.revoked });
      expectRefused(
        await registerPeer(base, peerIdFor(session, pia.user.id), { cookie: pia.token }),
        401,
        ERROR_CODES.UNAUTHENTICATED,
      );

      const soon = testPeople(stack.env.JWT_SECRET!).asPerson(
        {
          id: people.pat!.id,
          email: people.pat!.email,
          name: 'pat',
          type: 'participant',
          loginId: randomUUID(),
        },
        2,
      );
      const patSession = await freshChat([people.pat!.email]);
      const short = await registerPeer(base, peerIdFor(patSession, people.pat!.id), { cookie: soon.token });
      if (short.kind !== 'connected') throw new Error(`refused: ${JSON.stringify(short)}`);
      open.add(short.peer);
      expect(await short.peer.closed).toEqual({ code: 1008, reason: PEER_END_REASONS.expired });
    });
  });

  it('stays up after refusals, malformed messages and oversized ones', async () => {
    for (let i = 0; i < 10; i++) {
      expectRefused(
        await registerPeer(base, idOf('pat'), { cookie: 'forged' }),
        401,
        ERROR_CODES.UNAUTHENTICATED,
      );
    }
    const pat = await connect('pat', idOf('pat'));
    pat.send('this is not JSON');
    pat.send({ type: 'NO-SUCH-TYPE', dst: idOf('olga') });
    pat.send(
      JSON.stringify({ type: 'OFFER', dst: idOf('olga'), payload: 'x'.repeat(PEER_MESSAGE_MAX_BYTES) }),
    );
    // The oversized message closes that socket (1009); the server itself carries on.
    expect(await pat.next()).toBeNull();
    await stack.http().get('/ready').expect(200);
    const olga = await connect('olga', idOf('olga'));
    const again = await connect('pat', idOf('pat'));
    olga.send({ type: 'OFFER', dst: idOf('pat'), payload: { sdp: 'still here' } });
    expect(await again.next()).toMatchObject({ type: 'OFFER', payload: { sdp: 'still here' } });
  });

  it('gives the people of a session the configured ICE servers through the API, and no one else', async () => {
    expect(await call('pat', routes.getCallSettings, { sessionId: chatSession })).toEqual({
      iceServers: ICE_SERVERS,
      iceTransportPolicy: 'all',
      expiresAt: null,
      peerPath: '/stream',
      key: 'peerjs',
    });
    const otto = await stack.api.call('getCallSettings', { sessionId: chatSession }, people.otto!.token);
    expect(otto.status).toBe(403);
    await stack.http().get(routes.getCallSettings.path).query({ sessionId: chatSession }).expect(401);
  });
});
