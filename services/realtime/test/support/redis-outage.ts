import { randomSuffix, waitFor } from '@uis/kit/testing';
import type { MessageRecord } from '@uis/proto';
import type { RedisAdapterKind } from '../../src';
import type { RedisServer } from './processes';
import { RecordingConnection, pause } from './recording-connection';

/** What a scenario needs of the services around realtime (the composed stack in tests, processes in bench). */
export interface SessionHost {
  person(type: 'researcher' | 'participant', name: string): { token: string };
  session(owner: { token: string }, participants: null): Promise<string>;
  replica(overrides: Record<string, string>): Promise<{ url: string; close(): Promise<void> }>;
  storedMessages(sessionId: string): Promise<MessageRecord[]>;
}

export interface OutageOptions {
  adapter: RedisAdapterKind;
  /** kill: SIGKILL, then a new redis-server on the same port (it comes back empty). freeze: SIGSTOP, then SIGCONT. */
  outage: 'kill' | 'freeze';
  clients: number;
  outageMs: number;
  sendEveryMs: number;
  /** How long the lists may take to converge after the traffic stops. */
  settleMs: number;
  /** Run while Redis is down (its time counts in the outage), with the replicas' URLs. */
  duringOutage?: (replicaUrls: string[]) => Promise<void>;
}

export interface OutageResult {
  stored: MessageRecord[];
  acknowledgedNotStored: string[];
  /** Messages the server refused (none should be: the traffic is within every limit). */
  refused: string[];
  /** Deliveries that should have reached a client live (one per client per message). */
  expectedDeliveries: number;
  /** Of those, the ones that never came as messageAdded (the client had to resync to see them). */
  lostDeliveries: number;
  /** Lost deliveries of messages sent on the other replica (they crossed Redis). */
  lostCrossReplica: number;
  expectedCrossReplica: number;
  /** Clients whose list ended equal to the stored one, without any resync of their own. */
  convergedClients: number;
  reconnects: number;
}

/**
 * Two replicas on the given Redis, clients split between them and chatting; Redis is killed (and
 * restarted on the same port, empty) or frozen for `outageMs` mid-traffic. Counts
 * what every client received live, and whether its list ends equal to what records stored.
 */
export async function runRedisOutage(
  host: SessionHost,
  redis: RedisServer,
  options: OutageOptions,
): Promise<OutageResult> {
  const env = {
    REDIS_URL: redis.url,
    REDIS_PREFIX: `uis-test:${randomSuffix()}`,
    REDIS_ADAPTER: options.adapter,
    // Each client sends about 25 messages per 10 s, above the default write limit: what is measured
    // here is the adapter, so no message may be refused for its rate.
    LIVE_WRITE_LIMIT: '1000',
  };
  const replicas = [await host.replica(env), await host.replica(env)] as const;
  const clients: RecordingConnection[] = [];
  try {
    const researcher = host.person('researcher', 'Rhea Researcher');
    const sessionId = await host.session(researcher, null);
    const people = [
      researcher,
      ...Array.from({ length: options.clients - 1 }, (_, i) => host.person('participant', `P${i}`)),
    ];
    people.forEach((person, i) =>
      clients.push(
        new RecordingConnection(replicas[i % 2]!.url, { token: person.token, ackTimeoutMs: 15_000 }),
      ),
    );
    await Promise.all(clients.map((client) => client.connected()));
    for (const client of clients) await client.join(sessionId);

    const outcomes = new Map<string, string>();
    const sent: Array<Promise<void>> = [];
    let sending = true;
    const senders = clients.map(async (client, i) => {
      for (let n = 0; sending; n += 1) {
        await pause(options.sendEveryMs * (0.5 + Math.random()));
        if (!client.socket.connected) continue;
        const text = `${i}-${n}`;
        sent.push(client.send(text).then((outcome) => void outcomes.set(text, outcome.kind)));
      }
    });

    await pause(1000);
    if (options.outage === 'kill') await redis.kill();
    else redis.freeze();
    const down = Date.now();
    await options.duringOutage?.(replicas.map((replica) => replica.url));
    await pause(options.outageMs - (Date.now() - down));
    if (options.outage === 'kill') await redis.restart();
    else redis.thaw();
    await pause(2000);
    sending = false;
    await Promise.all(senders);
    await Promise.all(sent);

    const stored = await host.storedMessages(sessionId);
    await waitFor(
      () => clients.every((client) => client.state.messages.length >= stored.length),
      'the lists to converge',
      options.settleMs,
    ).catch(() => undefined);

    const senderOf = (message: MessageRecord) => Number(message.message.split('-')[0]);
    let lostDeliveries = 0;
    let lostCrossReplica = 0;
    let expectedCrossReplica = 0;
    clients.forEach((client, i) => {
      const live = new Set(client.payloadsOf('messageAdded').map(({ message }) => message.message_id));
      for (const message of stored) {
        const crosses = senderOf(message) % 2 !== i % 2;
        if (crosses) expectedCrossReplica += 1;
        if (live.has(message.message_id)) continue;
        lostDeliveries += 1;
        if (crosses) lostCrossReplica += 1;
      }
    });
    const same = (client: RecordingConnection) =>
      JSON.stringify(client.state.messages) === JSON.stringify(stored);
    return {
      stored,
      refused: [...outcomes].filter(([, outcome]) => outcome === 'refused').map(([text]) => text),
      acknowledgedNotStored: [...outcomes]
        .filter(([text, outcome]) => outcome === 'acknowledged' && !stored.some((m) => m.message === text))
        .map(([text]) => text),
      expectedDeliveries: stored.length * clients.length,
      lostDeliveries,
      lostCrossReplica,
      expectedCrossReplica,
      convergedClients: clients.filter(same).length,
      reconnects: clients.reduce((sum, client) => sum + client.reconnects, 0),
    };
  } finally {
    for (const client of clients) client.close();
    await Promise.all(replicas.map((replica) => replica.close()));
  }
}
