import { waitFor } from '@uis/kit/testing';
import { LIVE_MESSAGE_PAGE } from '@uis/proto';
import { FaultyPath } from './support/faulty-path';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { RecordingConnection, pause } from './support/recording-connection';

const CUT_MS = 30_000;
const CHATTERS = 8;
/** Each chatter's pace: about 14 messages per 10 s, within the default write limit. */
const SEND_EVERY_MS = 700;
/**
 * socket.io's heartbeat (the server's defaults: a ping every 25 s, 20 s to answer) is how both ends
 * learn that a silent connection is dead: at most 45 s after the last ping, 15 s after the cut.
 */
const NOTICED_WITHIN_MS = 45_000 - CUT_MS + 5000;

/**
 * A client whose network path goes silent for 30 s (a black hole, not a refusal: it sees nothing,
 * and is told nothing) while the others chat more than a page of messages. One replica without
 * Redis; the client reaches it through a TCP proxy that the test cuts, the others directly. The
 * connection the cut took never comes back (support/faulty-path.ts): the client must notice,
 * connect again and get what it missed, by itself.
 */
describe('a client cut off from realtime for 30 s', () => {
  let stack: LiveStack;
  let replica: Replica;
  let proxy: FaultyPath;
  const clients: RecordingConnection[] = [];

  const joined = async (url: string, person: TestPerson, sessionId: string) => {
    const client = await new RecordingConnection(url, { token: person.token }).connected();
    clients.push(client);
    expect((await client.join(sessionId)).status).toBe('SUCCESS');
    return client;
  };

  beforeAll(async () => {
    stack = await LiveStack.start('network_cut');
    replica = await stack.replica();
    proxy = await FaultyPath.start(Number(new URL(replica.url).port));
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await proxy?.close();
    await replica?.close();
    await stack?.close();
  });

  it('has every message it missed once the path is back, in order, the database’s list, with no action of its user', async () => {
    const researcher = stack.person('researcher', { name: 'Rhea Researcher' });
    const sessionId = await stack.session({ owner: researcher, scope: null });
    const cutOff = await joined(proxy.url, stack.person('participant', { name: 'Pat' }), sessionId);
    const chatters = [await joined(replica.url, researcher, sessionId)];
    for (let i = 1; i < CHATTERS; i += 1) {
      chatters.push(await joined(replica.url, stack.person('participant', { name: `P${i}` }), sessionId));
    }

    const outcomes: string[] = [];
    const sent: Array<Promise<void>> = [];
    let sending = true;
    const senders = chatters.map(async (client, i) => {
      for (let n = 0; sending; n += 1) {
        await pause(SEND_EVERY_MS * (0.5 + Math.random()));
        if (sending) sent.push(client.send(`${i}-${n}`).then((outcome) => void outcomes.push(outcome.kind)));
      }
    });

    await pause(1000); // some chat the client sees live
    const sentByClient = cutOff.sent.length;
    const storedAtCut = (await stack.storedMessages(sessionId)).length;
    proxy.blackHole();
    await pause(CUT_MS); // the others chat on
    const writtenDuringCut = (await stack.storedMessages(sessionId)).length - storedAtCut;
    proxy.mend();
    const mendedAt = Date.now();
    await pause(2000); // and on
    sending = false;
    await Promise.all(senders);
    await Promise.all(sent);

    const stored = await stack.storedMessages(sessionId);
    expect(writtenDuringCut).toBeGreaterThan(LIVE_MESSAGE_PAGE);
    expect(outcomes.filter((outcome) => outcome !== 'acknowledged')).toEqual([]);
    await waitFor(
      () => cutOff.state.messages.length >= stored.length,
      'the cut-off client to catch up',
      NOTICED_WITHIN_MS,
    ).catch(() => undefined);
    expect(cutOff.state.messages).toEqual(stored);
    expect(cutOff.state.status).toBe('connected');
    expect(cutOff.reconnects).toBe(1);
    // Its client did it alone: after the cut it sent only what LiveConnection sends by itself.
    const sentAfter = cutOff.sent.slice(sentByClient).map(([event]) => event);
    // (the clock samples it takes on every connect included).
    expect(sentAfter.filter((event) => !['sync', 'history', 'clock'].includes(event))).toEqual([]);
    console.info(
      `network cut: ${writtenDuringCut} messages written during the ${CUT_MS / 1000} s cut; the client ` +
        `was back ${Math.round((cutOff.lastConnectAt - mendedAt) / 100) / 10} s after the cut ended, ` +
        `${cutOff.socket.recovered ? 'recovered by socket.io' : 'not recovered by socket.io'}, and sent ${sentAfter.join(', ')}`,
    );
  }, 120_000);
});
