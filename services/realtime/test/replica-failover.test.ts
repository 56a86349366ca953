import { TEST_REDIS_URL, TcpBalancer, freePort, randomSuffix, waitFor } from '@uis/kit/testing';
import type { MessageRecord } from '@uis/proto';
import { LiveStack, type Replica } from './support/live-stack';
import { ChildService, buildRealtime, startRealtimeProcess } from './support/processes';
import { RecordingConnection, pause } from './support/recording-connection';

const CLIENTS = 20;
const SEND_EVERY_MS = 400;
const RECONNECT_WITHIN_MS = 5000;
const ACK_TIMEOUT_MS = 3000;

/**
 * Replica A is a real process, killed with SIGKILL while 20 clients chat; B runs on in this
 * process. The clients reach both through a TCP balancer (as they would through nginx or a
 * Kubernetes Service), so A's clients reconnect to the same URL and land on B.
 */
describe('a replica killed during a session', () => {
  let stack: LiveStack;
  let a: ChildService;
  let b: Replica;
  let balancer: TcpBalancer;
  let portA: number;
  const clients: RecordingConnection[] = [];
  const others: RecordingConnection[] = [];

  beforeAll(async () => {
    buildRealtime();
    stack = await LiveStack.start('failover');
    const redis = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `uis-test:${randomSuffix()}`,
      // Each client sends about 25 messages per 10 s, above the default write limit: this test is
      // about failing over, so none may be refused (connection-limits.test.ts tests the limit).
      LIVE_WRITE_LIMIT: '1000',
    };
    portA = await freePort();
    [a, b] = await Promise.all([
      startRealtimeProcess({ ...stack.env, ...redis, LOG_LEVEL: 'warn' }, portA),
      stack.replica(redis),
    ]);
    const portB = Number(new URL(b.url).port);
    balancer = await TcpBalancer.start([portA, portB]);
  }, 120_000);

  afterAll(async () => {
    for (const client of [...clients, ...others]) client.close();
    await a?.kill();
    await balancer?.close();
    await b?.close();
    await stack?.close();
  });

  it('reconnects every client within 5 s, each ending with the database’s list and the live state', async () => {
    const researcher = stack.person('researcher', { name: 'Rhea Researcher' });
    const sessionId = await stack.session({ owner: researcher, scope: null });
    const people = [
      researcher,
      ...Array.from({ length: CLIENTS - 1 }, (_, i) => stack.person('participant', { name: `P${i}` })),
    ];
    for (const person of people) {
      clients.push(
        new RecordingConnection(balancer.url, { token: person.token, ackTimeoutMs: ACK_TIMEOUT_MS }),
      );
    }
    await Promise.all(clients.map((client) => client.connected()));
    for (const client of clients) expect((await client.join(sessionId)).status).toBe('SUCCESS');

    // Everyone chats whenever connected, as the web client does (LiveConnection.send).
    const outcomes = new Map<string, string>();
    const sent: Array<Promise<void>> = [];
    let sending = true;
    const senders = clients.map(async (client, i) => {
      for (let n = 0; sending; n += 1) {
        await pause(SEND_EVERY_MS * (0.5 + Math.random()));
        if (!client.socket.connected) continue;
        const text = `${i}-${n}`;
        sent.push(client.send(text).then((outcome) => void outcomes.set(text, outcome.kind)));
      }
    });

    await pause(1000);
    // The clients A holds are those that lose their connection: all of them, not the first to notice.
    const openToA = balancer.connectionsTo(portA);
    const dropped = new Set<RecordingConnection>();
    for (const client of clients) client.socket.once('disconnect', () => dropped.add(client));
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    await waitFor(() => dropped.size >= openToA, 'A’s clients to notice');
    const onA = [...dropped];
    // While A's clients are away, the researcher (in another tab, on B) changes the live state:
    // they learn it only by rejoining.
    const tab = new RecordingConnection(b.url, { token: researcher.token });
    others.push(tab);
    await tab.connected();
    const status = { sessionId, paused: true, currentTime: 33 };
    expect((await tab.ask('toggleParticipantClicks', { sessionId, allowClicks: true })).status).toBe(
      'SUCCESS',
    );
    expect((await tab.ask('videoStatus', status)).status).toBe('SUCCESS');
    await waitFor(() => clients.every((client) => client.socket.connected), 'every client back', 8000);
    const reconnectMs = onA.map((client) => client.lastConnectAt - killedAt);

    await pause(1500); // more chat, all on B now
    sending = false;
    await Promise.all(senders);
    await Promise.all(sent); // every acknowledgement, or its timeout and the resync after it
    const acknowledged = [...outcomes]
      .filter(([, outcome]) => outcome === 'acknowledged')
      .map(([text]) => text);
    const unanswered = [...outcomes].filter(([, outcome]) => outcome === 'unanswered');
    const refused = [...outcomes].filter(([, outcome]) => outcome === 'refused');

    const stored = await stack.storedMessages(sessionId);
    const texts = stored.map((m) => m.message);
    expect(onA.length).toBeGreaterThanOrEqual(CLIENTS / 2 - 2);
    expect(Math.max(...reconnectMs)).toBeLessThan(RECONNECT_WITHIN_MS);
    expect(new Set(texts).size).toBe(texts.length); // nothing stored twice
    expect(acknowledged.filter((text) => !texts.includes(text))).toEqual([]); // nothing acknowledged lost
    expect(acknowledged.length).toBeGreaterThan(CLIENTS * 3);
    expect(refused).toEqual([]);

    for (const client of clients) {
      await waitFor(
        () => client.state.messages.length >= stored.length,
        'every client to converge',
        5000,
      ).catch(() => undefined);
      expect(client.state.messages as MessageRecord[]).toEqual(stored);
    }
    const participants = clients.slice(1, CLIENTS);
    expect(participants.map((client) => [client.state.allowClicks, client.last('videoStatus')])).toEqual(
      participants.map(() => [true, { ...status, playbackRate: 1, at: expect.any(Number) as number }]),
    );
    console.info(
      `failover: ${onA.length} clients on the killed replica, reconnected in ${Math.min(...reconnectMs)}-${Math.max(
        ...reconnectMs,
      )} ms; ${stored.length} messages stored, ${acknowledged.length} acknowledged, ${unanswered.length} unanswered`,
    );
  }, 60_000);
});
