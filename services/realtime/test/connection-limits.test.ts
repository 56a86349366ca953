import { waitFor } from '@uis/kit/testing';
import { RealtimeGateway } from '../src';
import { WRITE_WINDOW_SECONDS, tooManyWritesText } from '../src/live-session/write-limiter';
import { FaultyPath } from './support/faulty-path';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { RecordingConnection, type TestConnectOptions } from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';

const SOCKETS_PER_USER = 3;
const LIVE_WRITE_LIMIT = 5;
/** Short enough to wait for, long enough to join a session and act before it runs out. */
const TOKEN_SECONDS = 3;

/**
 * How long a connection lives (its access token's life, unless renewed) and how much one person
 * may open and write: one replica without Redis, with low limits so a test reaches them.
 */
describe('a live connection’s limits', () => {
  let stack: LiveStack;
  let replica: Replica;
  let researcher: TestPerson;
  const clients: RecordingConnection[] = [];
  const paths: FaultyPath[] = [];

  const connect = (options: TestConnectOptions, url = replica.url) => {
    const client = new RecordingConnection(url, options);
    clients.push(client);
    return client;
  };
  /** A person's connection, joined to the session. */
  const joined = async (sessionId: string, options: TestConnectOptions, url = replica.url) => {
    const client = await connect(options, url).connected();
    expect((await client.join(sessionId)).status).toBe('SUCCESS');
    return client;
  };
  /** The sockets this replica holds for a person. */
  const socketsOf = (person: TestPerson) =>
    [...replica.app.get(RealtimeGateway).server.sockets.sockets.values()].filter(
      (socket) => socket.data.user?.id === person.user.id,
    ).length;
  const ended = (client: RecordingConnection, what: string) =>
    waitFor(() => client.state.status === 'ended', what, (TOKEN_SECONDS + 3) * 1000);

  beforeAll(async () => {
    stack = await LiveStack.start('limits');
    replica = await stack.replica({
      SOCKETS_PER_USER: String(SOCKETS_PER_USER),
      LIVE_WRITE_LIMIT: String(LIVE_WRITE_LIMIT),
    });
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await Promise.all(paths.splice(0).map((path) => path.close()));
  });

  afterAll(async () => {
    await replica?.close();
    await stack?.close();
  });

  describe('its access token', () => {
    it('ends the connection when the token expires: connectionEnded UNAUTHENTICATED, then disconnected', async () => {
      const pat = stack.person('participant', { name: 'Pat' });
      const sessionId = await stack.session({ owner: researcher, scope: [pat] });
      const issuedAt = Date.now();
      const client = await joined(sessionId, { token: stack.signIn(pat.user, TOKEN_SECONDS).token });

      await ended(client, 'the connection to end with its token');
      const expired = { code: 'UNAUTHENTICATED', message: REALTIME_TEXTS.expired };
      expect(client.payloadsOf('connectionEnded')).toEqual([expired]);
      // Without a way to renew its token, the client stops there and says why.
      expect(client.state.problem).toEqual(expired);
      expect(client.socket.connected).toBe(false);
      // At the expiry, not before it, and not long after.
      const endedAfter = client.firstAt('connectionEnded')! - issuedAt;
      expect(endedAfter).toBeGreaterThanOrEqual(TOKEN_SECONDS * 1000 - 1000);
      expect(endedAfter).toBeLessThan(TOKEN_SECONDS * 1000 + 1000);
      await waitFor(() => socketsOf(pat) === 0, 'the server to let the socket go');
    });

    it('keeps it open past the expiry after renewToken with the same person’s newer token', async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      const renewed = await joined(sessionId, { token: stack.signIn(pat.user, TOKEN_SECONDS).token });
      // Signed after Pat's, so it expires after Pat's first token: when it ends, that one is over.
      const control = await joined(sessionId, { token: stack.signIn(pia.user, TOKEN_SECONDS).token });

      expect(await renewed.ask('renewToken', { token: stack.signIn(pat.user, 60).token })).toEqual({
        status: 'SUCCESS',
        res: null,
      });
      await ended(control, 'the unrenewed connection to end');

      expect(renewed.state.status).toBe('connected');
      expect(await renewed.send('Still here after my first token expired')).toMatchObject({
        kind: 'acknowledged',
      });
      expect(renewed.payloadsOf('connectionEnded')).toEqual([]);
    });

    it('refuses a renewal with another person’s token, or one not ours: the connection still ends', async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      const client = await joined(sessionId, { token: stack.signIn(pat.user, TOKEN_SECONDS).token });

      expect(await client.ask('renewToken', { token: stack.signIn(pia.user, 60).token })).toEqual({
        status: 'ERROR',
        res: { message: REALTIME_TEXTS.otherUser, code: 'FORBIDDEN' },
      });
      const forged = `${stack.signIn(pat.user, 60).token.slice(0, -4)}AAAA`;
      for (const token of [forged, stack.signIn(pat.user, -10).token]) {
        expect(await client.ask('renewToken', { token })).toEqual({
          status: 'ERROR',
          res: { message: REALTIME_TEXTS.badToken, code: 'UNAUTHENTICATED' },
        });
      }

      await ended(client, 'the connection to end with its first token');
      expect(client.state.problem).toEqual({ code: 'UNAUTHENTICATED', message: REALTIME_TEXTS.expired });
    });

    it('is renewed by the client before it expires, once per half-life of a short token', async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      let renewals = 0;
      const client = await joined(sessionId, {
        token: stack.signIn(pat.user, TOKEN_SECONDS).token,
        renewAccessToken: () => {
          renewals += 1;
          return Promise.resolve(stack.signIn(pat.user, TOKEN_SECONDS).token);
        },
      });
      const control = await joined(sessionId, { token: stack.signIn(pia.user, TOKEN_SECONDS).token });

      await ended(control, 'the unrenewed connection to end');
      expect(client.state.status).toBe('connected');
      expect(client.payloadsOf('connectionEnded')).toEqual([]);
      // Halfway through each token's life: about twice in one life, never in a loop.
      expect(renewals).toBeGreaterThanOrEqual(1);
      expect(renewals).toBeLessThanOrEqual(3);
      expect(client.sent.filter(([event]) => event === 'renewToken')).toHaveLength(renewals);
      expect(await client.send('Renewed by my client')).toMatchObject({ kind: 'acknowledged' });
    });

    it('when the server ended it, or refused an expired token, the client renews and connects again', async () => {
      const pat = stack.person('participant', { name: 'Pat' });
      const sessionId = await stack.session({ owner: researcher, scope: [pat] });
      // The first renewal fails (auth could not be reached), so the token runs out; the next one
      // is answered at once (from memory), before the server's disconnect has arrived: on a slow
      // link connectionEnded and the disconnect after it come apart, as in a browser.
      let renewals = 0;
      const renewAccessToken = () => {
        renewals += 1;
        return renewals === 1
          ? Promise.reject(new Error('auth did not answer'))
          : Promise.resolve(stack.signIn(pat.user, 60).token);
      };
      const slowPath = await FaultyPath.start(Number(new URL(replica.url).port));
      paths.push(slowPath);
      slowPath.trickle();
      const client = await joined(
        sessionId,
        { token: stack.signIn(pat.user, TOKEN_SECONDS).token, renewAccessToken },
        slowPath.url,
      );

      await waitFor(() => client.payloadsOf('connectionEnded').length === 1, 'the server to end it', 6000);
      const endedAt = client.firstAt('connectionEnded')!;
      await waitFor(() => client.lastConnectAt > endedAt, 'the client to connect again');
      expect(client.state.status).toBe('connected');
      // Back in the session by itself: it synced the list after connecting.
      expect(client.sent.filter(([event]) => event === 'sync')).toHaveLength(1);
      expect(await client.send('Back with a renewed token')).toMatchObject({ kind: 'acknowledged' });

      // A client opened with a token that has expired renews it when the handshake is refused.
      const stale = connect({ token: stack.signIn(pat.user, -10).token, renewAccessToken });
      await waitFor(() => stale.socket.connected, 'the stale client to connect with a renewed token');
      expect(stale.state.problem).toBeNull();
    });
  });

  describe('sockets per person', () => {
    it(`refuses more than SOCKETS_PER_USER (${SOCKETS_PER_USER}) at the handshake, even all at once; a closed one frees its place`, async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const attempts = Array.from({ length: SOCKETS_PER_USER + 2 }, () => connect({ token: pat.token }));
      const outcomes = await Promise.all(
        attempts.map((client) =>
          client.connected().then(
            () => 'connected',
            (error: Error & { data?: { code?: string } }) => ({
              message: error.message,
              code: error.data?.code,
            }),
          ),
        ),
      );
      const refusal = { message: REALTIME_TEXTS.tooManySockets(SOCKETS_PER_USER), code: 'RATE_LIMITED' };
      expect(outcomes.filter((outcome) => outcome === 'connected')).toHaveLength(SOCKETS_PER_USER);
      expect(outcomes.filter((outcome) => outcome !== 'connected')).toEqual([refusal, refusal]);
      // The refused clients stop (no retries) and say why.
      const refused = attempts.filter((client) => !client.socket.connected);
      expect(refused.map((client) => client.state.problem)).toEqual([refusal, refusal]);
      expect(socketsOf(pat)).toBe(SOCKETS_PER_USER);

      // Someone else is not held back by Pat's sockets.
      await connect({ token: pia.token }).connected();

      attempts.find((client) => client.socket.connected)!.close();
      await waitFor(
        () => socketsOf(pat) === SOCKETS_PER_USER - 1,
        'the server to count the closed socket out',
      );
      await connect({ token: pat.token }).connected();
      await expect(connect({ token: pat.token }).connected()).rejects.toMatchObject({
        message: refusal.message,
        data: { code: 'RATE_LIMITED' },
      });
    });
  });

  describe('writes per person per session', () => {
    it(`refuses messages and clicks beyond LIVE_WRITE_LIMIT (${LIVE_WRITE_LIMIT}) per ${WRITE_WINDOW_SECONDS} s, saying when to retry; nobody else is held back`, async () => {
      const [pat, pia] = [
        stack.person('participant', { name: 'Pat' }),
        stack.person('participant', { name: 'Pia' }),
      ];
      const sessionId = await stack.session({ owner: researcher, scope: [pat, pia] });
      const owner = await joined(sessionId, { token: researcher.token });
      const fast = await joined(sessionId, { token: pat.token });
      const other = await joined(sessionId, { token: pia.token });
      await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
      await waitFor(() => fast.state.allowClicks, 'clicks allowed');
      const click = { sessionId, x: 0.5, y: 0.5, color: 'rgb(1, 2, 3)' };

      // Messages and clicks count together.
      for (let n = 1; n <= LIVE_WRITE_LIMIT - 2; n += 1) {
        expect(await fast.send(`Pat ${n}`)).toMatchObject({ kind: 'acknowledged' });
      }
      for (let n = 0; n < 2; n += 1) expect((await fast.ask('clickVideo', click)).status).toBe('SUCCESS');

      const tooFast = await fast.send('One too many');
      const clickTooFast = await fast.ask('clickVideo', click);
      const texts = Array.from({ length: WRITE_WINDOW_SECONDS }, (_, i) => tooManyWritesText(i + 1));
      expect(tooFast).toEqual({
        kind: 'refused',
        code: 'RATE_LIMITED',
        message: expect.any(String) as string,
      });
      expect(clickTooFast).toEqual({
        status: 'ERROR',
        res: { code: 'RATE_LIMITED', message: expect.any(String) as string },
      });
      expect(texts).toContain(tooFast.kind === 'refused' && tooFast.message);
      expect(texts).toContain(clickTooFast.status === 'ERROR' && clickTooFast.res.message);

      // The others in the session, and Pat in another session, write as before.
      expect(await other.send('Pia is fine')).toMatchObject({ kind: 'acknowledged' });
      expect(await owner.send('So is the researcher')).toMatchObject({ kind: 'acknowledged' });
      const elsewhere = await stack.session({ owner: researcher, scope: [pat] });
      const patElsewhere = await joined(elsewhere, { token: pat.token });
      expect(await patElsewhere.send('Another session')).toMatchObject({ kind: 'acknowledged' });

      // Nothing refused was stored or broadcast.
      await waitFor(() => other.texts().includes('So is the researcher'), 'the researcher’s message');
      const stored = (await stack.storedMessages(sessionId)).map((m) => m.message);
      expect(stored).toEqual(['Pat 1', 'Pat 2', 'Pat 3', 'Pia is fine', 'So is the researcher']);
      expect(other.texts()).toEqual(stored);
      expect(await stack.storedPixels(sessionId)).toHaveLength(2);
    });
  });
});
