import { InternalClient } from '@uis/kit';
import { waitFor } from '@uis/kit/testing';
import { LIVE_MESSAGE_PAGE, internalRoutes, type MessagePage, type MessageRecord } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import { RecordingConnection } from './support/recording-connection';

/**
 * A session's chat on the live protocol comes a page at a time: a join gets the newest
 * LIVE_MESSAGE_PAGE messages, `history` the pages before them, so a long session costs a joining
 * client what a short one does. One replica without Redis.
 */
describe('the live chat in pages', () => {
  let stack: LiveStack;
  let replica: Replica;
  let researcher: TestPerson;
  let pat: TestPerson;
  const clients: RecordingConnection[] = [];

  const joined = async (person: TestPerson, sessionId: string) => {
    const client = await new RecordingConnection(replica.url, { token: person.token }).connected();
    clients.push(client);
    expect((await client.join(sessionId)).status).toBe('SUCCESS');
    return client;
  };
  const historyAsked = (client: RecordingConnection) => client.sent.filter(([event]) => event === 'history');

  beforeAll(async () => {
    stack = await LiveStack.start('pages');
    // The gap test writes a few hundred messages from one person in seconds.
    replica = await stack.replica({ LIVE_WRITE_LIMIT: '1000' });
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
    pat = stack.person('participant', { name: 'Pat' });
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await replica?.close();
    await stack?.close();
  });

  it('a join sends only the newest page, and history pages back to the start in order', async () => {
    const sessionId = await stack.session({ owner: researcher, scope: [pat] });
    await stack.storeMessages(sessionId, researcher, 2 * LIVE_MESSAGE_PAGE + 50);
    const stored = await stack.storedMessages(sessionId);
    expect(stored).toHaveLength(2 * LIVE_MESSAGE_PAGE + 50);

    const client = await new RecordingConnection(replica.url, { token: pat.token }).connected();
    clients.push(client);
    const newest = stored.slice(-LIVE_MESSAGE_PAGE);
    const list = await client.join(sessionId);
    expect(list).toEqual({ status: 'SUCCESS', res: newest });
    await waitFor(() => client.payloadsOf('message').length === 1, 'the list as a message event');
    expect(client.payloadsOf('message')).toEqual([list]);
    expect(client.state.messages).toEqual(newest);
    expect(client.state.hasOlder).toBe(true);

    // The protocol: each page holds the messages just before `before`, oldest first.
    const pages: MessagePage[] = [];
    for (let before = newest[0]!.message_id; ;) {
      const answer = await client.ask('history', { sessionId, before });
      if (answer.status !== 'SUCCESS') throw new Error(`history refused: ${answer.res.message}`);
      pages.unshift(answer.res);
      if (!answer.res.hasMore) break;
      before = answer.res.messages[0]!.message_id;
    }
    expect(pages.map(({ messages, hasMore }) => [messages.length, hasMore])).toEqual([
      [50, false],
      [LIVE_MESSAGE_PAGE, true],
    ]);
    expect([...pages.flatMap(({ messages }) => messages), ...newest]).toEqual(stored);

    // The client scrolling back: a page per call, until there is nothing older.
    await client.loadOlder();
    expect(client.state.messages).toEqual(stored.slice(-2 * LIVE_MESSAGE_PAGE));
    await client.loadOlder();
    expect(client.state.messages).toEqual(stored);
    expect(client.state.hasOlder).toBe(false);
    await client.loadOlder();
    expect(historyAsked(client)).toHaveLength(pages.length + 2);
  });

  it('joins that arrive while a read is in flight go to records as one call, each socket getting its own session’s page', async () => {
    const sessions = [
      await stack.session({ owner: researcher, scope: null }),
      await stack.session({ owner: researcher, scope: null }),
      await stack.session({ owner: researcher, scope: null }),
    ];
    await stack.storeMessages(sessions[0]!, researcher, 3, 'First');
    await stack.storeMessages(sessions[2]!, researcher, LIVE_MESSAGE_PAGE + 2, 'Third');
    const stored: MessageRecord[][] = [];
    for (const sessionId of sessions) stored.push(await stack.storedMessages(sessionId));
    // Nine sockets of nine people, three in each session (the second has no messages).
    const joiners = await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const person = stack.person('participant', { name: `Joiner ${i}` });
        const client = await new RecordingConnection(replica.url, { token: person.token }).connected();
        clients.push(client);
        return client;
      }),
    );
    const sessionOf = (i: number) => sessions[i % sessions.length]!;

    // The replica's own client to records, watched: the first read is held until every other join
    // has queued its own (it is sent participantClicksToggled in the same tick as it queues).
    const internal = replica.app.get(InternalClient);
    const call = internal.call.bind(internal);
    const reads: string[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(internal, 'call').mockImplementation(async (route, input) => {
      if (route.path === internalRoutes.recordsLatestMessages.path) {
        reads.push([...(input as { sessionIds: string[] }).sessionIds]);
        if (reads.length === 1) await held;
      }
      return call(route, input);
    });
    const count = () =>
      Promise.all([
        stack.recordsRequests(internalRoutes.recordsLatestMessages.path),
        stack.recordsRequests(internalRoutes.recordsListMessages.path),
      ]);
    try {
      const [latestBefore, listedBefore] = await count();
      const first = joiners[0]!.join(sessionOf(0));
      await waitFor(() => reads.length === 1, 'the first read');
      const others = joiners.slice(1).map((client, i) => client.join(sessionOf(i + 1)));
      await waitFor(
        () => joiners.every((client) => client.payloadsOf('participantClicksToggled').length > 0),
        'every join to queue its read',
      );
      release();
      const lists = await Promise.all([first, ...others]);
      lists.forEach((list, i) =>
        expect(list).toEqual({ status: 'SUCCESS', res: stored[i % 3]!.slice(-LIVE_MESSAGE_PAGE) }),
      );
      // The eight joins that waited went as one call, each session once.
      expect(reads).toHaveLength(2);
      expect(reads[0]).toEqual([sessions[0]]);
      expect([...reads[1]!].sort()).toEqual([...sessions].sort());
      // As records saw it (its count is taken as each answer ends): two requests of the grouped
      // route, none of the single page's.
      await waitFor(async () => (await count())[0] >= latestBefore + 2, 'records to count its answers');
      expect(await count()).toEqual([latestBefore + 2, listedBefore]);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('refuses history before a message the session does not have, saying so, with no data', async () => {
    const sessionId = await stack.session({ owner: researcher, scope: [pat] });
    const elsewhere = await stack.session({ owner: researcher, scope: [pat] });
    await stack.storeMessages(sessionId, researcher, 3);
    await stack.storeMessages(elsewhere, researcher, 3, 'Elsewhere');
    const [otherSessions] = await stack.storedMessages(elsewhere);
    const client = await joined(pat, sessionId);

    const noSuchMessage = {
      status: 'ERROR',
      res: { message: 'No such message in this session.', code: 'NOT_FOUND' },
    };
    expect(await client.ask('history', { sessionId, before: randomUUID() })).toEqual(noSuchMessage);
    expect(await client.ask('history', { sessionId, before: otherSessions!.message_id })).toEqual(
      noSuchMessage,
    );
    expect(client.texts()).toEqual(['Stored 1', 'Stored 2', 'Stored 3']);
  });

  it('after an absence that missed more than a page, the client fills the gap by itself: the database’s list', async () => {
    const sessionId = await stack.session({ owner: researcher, scope: null });
    const writer = await joined(researcher, sessionId);
    const away = await joined(pat, sessionId);
    for (let n = 1; n <= 10; n += 1) await writer.send(`Before ${n}`);
    await waitFor(() => away.state.messages.length === 10, 'the first messages');

    // Pat's socket leaves, as socket.io cannot recover it (after its 2-minute recovery window, or
    // when the replica that held it is gone): what Pat missed can come only from the lists.
    away.socket.disconnect();
    const missed = 2 * LIVE_MESSAGE_PAGE + 50;
    for (let n = 1; n <= missed; n += 1) {
      expect(await writer.send(`While away ${n}`)).toMatchObject({ kind: 'acknowledged' });
    }
    const sentBefore = away.sent.length;
    away.socket.connect();

    const stored = await stack.storedMessages(sessionId);
    await waitFor(() => away.state.messages.length === stored.length, 'the gap to be filled');
    expect(away.state.messages).toEqual(stored);
    // By itself: a resync, then history pages back to what it had.
    const asked = away.sent.slice(sentBefore).map(([event]) => event);
    expect(asked.filter((event) => event !== 'clock')).toEqual(['sync', 'history', 'history']);
    expect(away.state.hasOlder).toBe(false);
  });
});
