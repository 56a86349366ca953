import { waitFor } from '@uis/kit/testing';
import { LIVE_MESSAGE_PAGE } from '@uis/proto';
import { Client } from 'pg';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { RecordingConnection } from './support/recording-connection';

/**
 * The chat has one order, the order records stored the messages in (`seq`), for its pages and for
 * the live list alike. Time order would differ where a message stored earlier carries a later time
 * (appends in concurrent transactions: `created_at` is the transaction's start) or the same time (the
 * rows of one INSERT, which realtime's group commit makes): when it sorted the live list, a resync
 * whose newest page's edge fell between two such messages lost one (the soak: 68 of 200 lists one
 * message short after 30 minutes). One replica without Redis.
 */
describe('a resync after the session passed a page', () => {
  let stack: LiveStack;
  let replica: Replica;
  let db: Client;
  let researcher: TestPerson;
  let pat: TestPerson;
  const clients: RecordingConnection[] = [];

  beforeAll(async () => {
    stack = await LiveStack.start('resync_order');
    replica = await stack.replica();
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
    pat = stack.person('participant', { name: 'Pat' });
  });

  afterAll(async () => {
    for (const client of clients.splice(0)) client.close();
    await db?.end();
    await replica?.close();
    await stack?.close();
  });

  it('lists messages in the order stored whatever their times say, and a resync past a page keeps them so', async () => {
    const sessionId = await stack.session({ owner: researcher, scope: [pat] });
    await stack.storeMessages(sessionId, researcher, 10, 'Before');
    await stack.storeMessages(sessionId, researcher, 2, 'Pair');
    // 'Pair 1' is stored before 'Pair 2' but carries a later time, as a transaction that began
    // later can store first.
    await db.query(
      `UPDATE records.messages SET created_at = (
         SELECT created_at + interval '1 millisecond' FROM records.messages
         WHERE session_id = $1 AND message = 'Pair 2')
       WHERE session_id = $1 AND message = 'Pair 1'`,
      [sessionId],
    );

    const client = await new RecordingConnection(replica.url, { token: pat.token }).connected();
    clients.push(client);
    await client.join(sessionId);
    await waitFor(() => client.state.messages.length === 12, 'the first list');
    expect(client.texts().slice(-2)).toEqual(['Pair 1', 'Pair 2']);

    // While Pat is away, just enough is written that the newest page starts at 'Pair 2': 'Pair 1',
    // stored before it (though with a later time), is the first message left out.
    client.socket.disconnect();
    await stack.storeMessages(sessionId, researcher, LIVE_MESSAGE_PAGE - 1, 'While away');
    client.socket.connect();

    const stored = await stack.storedMessages(sessionId);
    expect(stored).toHaveLength(LIVE_MESSAGE_PAGE + 11);
    await waitFor(
      () =>
        client.state.messages.some((message) => message.message === `While away ${LIVE_MESSAGE_PAGE - 1}`),
      'the resync',
    );
    const lists = client.payloadsOf('message');
    expect(lists).toHaveLength(2);
    expect(lists[1]).toMatchObject({
      status: 'SUCCESS',
      res: expect.not.arrayContaining([expect.objectContaining({ message: 'Pair 1' })]),
    });
    expect(client.state.messages).toEqual(stored);
    expect(client.state.hasOlder).toBe(false);
  });
});
