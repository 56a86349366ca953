import type { INestApplication } from '@nestjs/common';
import { TEST_REDIS_URL, randomSuffix, waitFor } from '@uis/kit/testing';
import { RealtimeGateway } from '../src';
import { ownerRoom, sessionRoom } from '../src/live-session/live-socket';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { RecordingConnection } from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';

/** How soon a change made through REST must reach every live connection it concerns. */
const AT_ONCE_MS = 1000;

/**
 * Access that ends while connections are open: a participant removed from a session's scope, a
 * deleted session, a login signed out, an account deleted. Two replicas on one Redis, as in
 * production: A is the stack's own realtime, which studies' notices reach (through the stack's
 * dispatcher, as through the gateway); B is a second replica, which hears of them only from A.
 * Auth, studies and records are the real services of the composed stack, on the same Redis.
 */
describe('live access that ends', () => {
  let stack: LiveStack;
  let b: Replica;
  let researcher: TestPerson;
  const clients: RecordingConnection[] = [];
  const notPart = {
    status: 'ERROR',
    res: { message: 'You are not part of this session.', code: 'FORBIDDEN' },
  };

  /** A: the replica studies tells. */
  const a = () => stack.url;
  const connect = (url: string, token: string) => {
    const client = new RecordingConnection(url, { token });
    clients.push(client);
    return client;
  };
  const joined = async (url: string, token: string, sessionId: string) => {
    const client = await connect(url, token).connected();
    expect((await client.join(sessionId)).status).toBe('SUCCESS');
    return client;
  };
  const roomsOf = (app: INestApplication) => app.get(RealtimeGateway).server.of('/').adapter.rooms;

  beforeAll(async () => {
    stack = await LiveStack.start('access_ends', {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `uis-test:${randomSuffix()}`,
      QUEUE_PREFIX: `uis-test-${randomSuffix()}`,
    });
    b = await stack.replica();
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await b?.close();
    await stack?.close();
  });

  describe('when studies says who may be in a session changed', () => {
    it('a participant removed from the scope gets nothing more of the room at once, on either replica, without sending anything', async () => {
      const [pat, pam, pia] = ['Pat', 'Pam', 'Pia'].map((name) =>
        stack.person('participant', { name: name }),
      ) as [TestPerson, TestPerson, TestPerson];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pam, pia] });
      const owner = await joined(a(), researcher.token, sessionId);
      const patOnB = await joined(b.url, pat.token, sessionId);
      const pamOnA = await joined(a(), pam.token, sessionId);
      const piaOnB = await joined(b.url, pia.token, sessionId);
      // Pat's client ignores accessEnded, as a modified one could: the server must not count on it.
      patOnB.socket.off('accessEnded');
      await owner.send('Before the change');
      await waitFor(
        () => [patOnB, pamOnA, piaOnB].every((client) => client.texts().includes('Before the change')),
        'the first message everywhere',
      );
      const patSentBefore = patOnB.sent.length;

      await stack.editSession(sessionId, { scope: [pia] });
      const removed = { sessionId, message: REALTIME_TEXTS.removed };
      await waitFor(
        () => patOnB.payloadsOf('accessEnded').length > 0 && pamOnA.payloadsOf('accessEnded').length > 0,
        'accessEnded on both replicas',
        AT_ONCE_MS,
      );
      expect(patOnB.payloadsOf('accessEnded')).toEqual([removed]);
      expect(pamOnA.payloadsOf('accessEnded')).toEqual([removed]);
      // A client that heeds it stops, saying why (and never shows itself reconnecting).
      expect(pamOnA.state).toMatchObject({
        status: 'ended',
        accessEnded: removed.message,
        problem: { code: 'FORBIDDEN', message: removed.message },
      });
      expect(pamOnA.statuses).toEqual(['connecting', 'connected', 'ended']);
      await expect(pamOnA.connected()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });

      // The room goes on without them: the next message and the researcher's peer id for the call.
      await owner.ask('joinVideoChat', { sessionId, userId: 'researcher-peer' });
      await owner.send('After the change');
      await waitFor(
        () => piaOnB.texts().includes('After the change') && piaOnB.payloadsOf('joinVideoChat').length === 1,
        'the room’s broadcasts to Pia',
      );
      // Pat's socket is still open (only the room was left), and got none of it.
      expect(patOnB.socket.connected).toBe(true);
      expect(patOnB.payloadsOf('messageAdded').map(({ message }) => message.message)).toEqual([
        'Before the change',
      ]);
      expect(patOnB.payloadsOf('joinVideoChat')).toEqual([]);
      expect(patOnB.sent.slice(patSentBefore)).toEqual([]);
      // Asking again is refused.
      expect(await patOnB.ask('sync', { sessionId })).toEqual(notPart);
      // The marker passes through the adapter (connection state recovery), so may follow the ack.
      await waitFor(() => patOnB.payloadsOf('message').length === 2, 'the error marker');
      expect(patOnB.payloadsOf('message')[1]).toEqual(notPart);
    });

    it('a deleted session removes everyone, its researcher too, from its rooms on every replica', async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      const everyone = [
        await joined(a(), researcher.token, sessionId),
        await joined(b.url, researcher.token, sessionId), // a second tab
        await joined(b.url, pat.token, sessionId),
        await joined(a(), pia.token, sessionId),
      ];
      const apps = [stack.realtimeApp, b.app];
      for (const app of apps) expect(roomsOf(app).get(sessionRoom(sessionId))?.size).toBe(2);
      // Pat's client ignores accessEnded (the others close their connection when told).
      const patOnB = everyone[2]!;
      patOnB.socket.off('accessEnded');

      await stack.deleteSession(researcher, sessionId);
      await waitFor(
        () => everyone.every((client) => client.payloadsOf('accessEnded').length > 0),
        'accessEnded to everyone',
        AT_ONCE_MS,
      );
      for (const client of everyone) {
        expect(client.payloadsOf('accessEnded')).toEqual([{ sessionId, message: REALTIME_TEXTS.deleted }]);
      }
      expect(everyone.map((client) => client.state.status)).toEqual(['ended', 'ended', 'connected', 'ended']);
      // The server took every socket out of the session's rooms, Pat's open one too.
      for (const app of apps) {
        expect(roomsOf(app).get(sessionRoom(sessionId))).toBeUndefined();
        expect(roomsOf(app).get(ownerRoom(sessionId))).toBeUndefined();
      }
    });
  });

  describe('when a login or an account is revoked', () => {
    const revoked = { code: 'REVOKED', message: REALTIME_TEXTS.revoked };
    const refusedAtHandshake = { message: REALTIME_TEXTS.revoked, data: { code: 'REVOKED' } };

    it('a logout ends that login’s connections on every replica within a second, and its token is refused; another login goes on', async () => {
      const pat = await stack.signUp('Pat');
      const patsPhone = await stack.signInAgain(pat);
      expect(patsPhone.user.loginId).not.toBe(pat.user.loginId);
      const sessionId = await stack.session({ owner: researcher, scope: null });
      const onA = await joined(a(), pat.token, sessionId);
      const onB = await joined(b.url, pat.token, sessionId);
      const phone = await joined(b.url, patsPhone.token, sessionId);

      const loggedOutAt = Date.now();
      await stack.logout(pat);
      await waitFor(
        () => onA.state.status === 'ended' && onB.state.status === 'ended',
        'both connections of the login to end',
        AT_ONCE_MS,
      );
      for (const client of [onA, onB]) {
        expect(client.payloadsOf('connectionEnded')).toEqual([revoked]);
        expect(client.state.problem).toEqual(revoked);
        expect(client.firstAt('connectionEnded')! - loggedOutAt).toBeLessThan(AT_ONCE_MS);
        expect(client.socket.connected).toBe(false);
      }
      for (const url of [a(), b.url]) {
        await expect(connect(url, pat.token).connected()).rejects.toMatchObject(refusedAtHandshake);
      }

      // The same person's other login (another device) is not signed out, and cannot take on the
      // ended login's token.
      expect(phone.state.status).toBe('connected');
      expect(await phone.send('Still signed in on my phone')).toMatchObject({ kind: 'acknowledged' });
      expect(await phone.ask('renewToken', { token: pat.token })).toEqual({ status: 'ERROR', res: revoked });
    });

    it('a deleted account’s connections end on every replica, whatever the login, and it posts nothing afterwards', async () => {
      const pam = await stack.signUp('Pam');
      const pamsPhone = await stack.signInAgain(pam);
      const sessionId = await stack.session({ owner: researcher, scope: null });
      const owner = await joined(a(), researcher.token, sessionId);
      const onA = await joined(a(), pam.token, sessionId);
      const onB = await joined(b.url, pamsPhone.token, sessionId);
      // A client that ignores connectionEnded and connects again, as a modified one could.
      const stubborn = await joined(b.url, pam.token, sessionId);
      stubborn.socket.off('connectionEnded');
      expect(await onA.send('Before I leave')).toMatchObject({ kind: 'acknowledged' });

      const deletedAt = Date.now();
      await stack.deleteAccount(pam);
      await waitFor(
        () => [onA, onB].every((client) => client.state.status === 'ended') && !stubborn.socket.connected,
        'every connection of the account to end',
        AT_ONCE_MS,
      );
      for (const client of [onA, onB, stubborn]) {
        expect(client.payloadsOf('connectionEnded')).toEqual([revoked]);
        expect(client.firstAt('connectionEnded')! - deletedAt).toBeLessThan(AT_ONCE_MS);
      }

      stubborn.socket.connect();
      stubborn.socket.emit('message', { sessionId, message: 'Posted after my account was deleted' });
      await expect(stubborn.connected()).rejects.toMatchObject(refusedAtHandshake);
      for (const [url, token] of [
        [a(), pam.token],
        [b.url, pamsPhone.token],
      ] as const) {
        await expect(connect(url, token).connected()).rejects.toMatchObject(refusedAtHandshake);
      }
      // The room saw nothing from Pam after the deletion, and records holds nothing of hers.
      expect(await owner.send('Anyone left?')).toMatchObject({ kind: 'acknowledged' });
      await waitFor(() => owner.texts().includes('Anyone left?'), 'the researcher’s message');
      expect(owner.texts()).not.toContain('Posted after my account was deleted');
      expect((await stack.storedMessages(sessionId)).map((m) => m.message)).toEqual(['Anyone left?']);
    });
  });
});
