import {
  CHAT_MESSAGE_MAX_CHARS,
  CLIENT_EVENT_NAMES,
  EXPOSURE_EVENTS_PER_BATCH,
  type ClientEventName,
} from '@uis/proto';
import { waitFor } from '@uis/kit/testing';
import { randomUUID } from 'node:crypto';
import { MAX_QUEUED_EVENTS } from '../src/live-session/live-events';
import { LiveStack, type TestPerson, type Replica } from './support/live-stack';
import {
  RecordingConnection,
  pause,
  rawAsk,
  rawSocket,
  type TestConnectOptions,
} from './support/recording-connection';
import { REALTIME_TEXTS } from '../src/realtime.texts';

/**
 * What the server refuses, and that a refusal changes nothing and breaks nothing: one replica
 * without Redis (the in-memory adapter and room state of `npm start`).
 */
describe('realtime refuses', () => {
  let stack: LiveStack;
  let replica: Replica;
  let researcher: TestPerson;
  let pat: TestPerson;
  let otto: TestPerson;
  let sessionId: string;
  let owner: RecordingConnection;
  let participant: RecordingConnection;
  const clients: RecordingConnection[] = [];
  const notPart = {
    status: 'ERROR',
    res: { message: 'You are not part of this session.', code: 'FORBIDDEN' },
  };

  const connect = (person: TestPerson | null, options: TestConnectOptions = {}) => {
    const client = new RecordingConnection(replica.url, { token: person?.token, ...options });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    stack = await LiveStack.start('refusals');
    // Studies' answers are reused for 200 ms here (5 s by default), so a scope change shows quickly.
    replica = await stack.replica({ ACCESS_CACHE_MS: '200' });
    researcher = stack.person('researcher', { name: 'Rhea Researcher' });
    pat = stack.person('participant', { name: 'Pat' });
    otto = stack.person('participant', { name: 'Otto Outsider' });
    sessionId = await stack.session({ owner: researcher, scope: [pat] });
    owner = await connect(researcher).connected();
    participant = await connect(pat).connected();
    await owner.join(sessionId);
    await participant.join(sessionId);
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await replica?.close();
    await stack?.close();
  });

  describe('at the handshake', () => {
    const refusal = async (client: RecordingConnection) => {
      const error = await client.connected().then(
        () => null,
        (e: Error & { data?: { code?: string } }) => e,
      );
      client.close();
      return error && { message: error.message, code: error.data?.code };
    };

    it('a connection without a token', async () => {
      expect(await refusal(connect(null))).toEqual({
        message: REALTIME_TEXTS.missingToken,
        code: 'UNAUTHENTICATED',
      });
    });

    it('a token not signed by us, or expired', async () => {
      const forged = { ...pat, token: `${pat.token.slice(0, -4)}AAAA` };
      const expired = { ...pat, token: stack.signIn(pat.user, -10).token };
      for (const person of [forged, expired]) {
        expect(await refusal(connect(person))).toEqual({
          message: REALTIME_TEXTS.badToken,
          code: 'UNAUTHENTICATED',
        });
      }
    });

    it('a browser on another site, even with a good token', async () => {
      expect(await refusal(connect(pat, { origin: 'https://evil.example' }))).toEqual({
        message: 'Connections from https://evil.example are not allowed.',
        code: 'FORBIDDEN',
      });
    });

    it('but not the product’s own origin, the Vite dev server, or the accessToken cookie', async () => {
      const own = connect(pat, { origin: new URL(stack.env.PUBLIC_URL!).origin });
      const vite = connect(pat, { origin: 'http://localhost:5173' });
      const cookie = connect(null, { cookie: pat.token, origin: 'http://localhost:5173' });
      for (const client of [own, vite, cookie]) expect(await refusal(client)).toBeNull();
    });
  });

  describe('events', () => {
    it('videoStatus and toggleParticipantClicks from a participant, changing nothing', async () => {
      const status = await participant.ask('videoStatus', { sessionId, paused: false, currentTime: 99 });
      const toggle = await participant.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
      expect([status, toggle]).toEqual([
        { status: 'ERROR', res: { message: REALTIME_TEXTS.ownerOnly, code: 'FORBIDDEN' } },
        { status: 'ERROR', res: { message: REALTIME_TEXTS.ownerOnly, code: 'FORBIDDEN' } },
      ]);
      await pause(100);
      expect(owner.payloadsOf('videoStatus')).toEqual([]);
      expect(owner.payloadsOf('participantClicksToggled')).toEqual([{ sessionId, allowClicks: false }]);

      const fresh = await connect(pat).connected();
      await fresh.join(sessionId);
      expect(fresh.payloadsOf('participantClicksToggled')).toEqual([{ sessionId, allowClicks: false }]);
      expect(fresh.payloadsOf('videoStatus')).toEqual([]);
    });

    it('a click while clicks are off, and any click of the researcher’s', async () => {
      const click = { sessionId, x: 0.5, y: 0.5, color: 'n/a' };
      expect(await participant.ask('clickVideo', click)).toEqual({
        status: 'ERROR',
        res: { message: REALTIME_TEXTS.clicksOff, code: 'FORBIDDEN' },
      });
      await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
      expect(await owner.ask('clickVideo', click)).toEqual({
        status: 'ERROR',
        res: { message: REALTIME_TEXTS.participantsClick, code: 'FORBIDDEN' },
      });
      expect((await participant.ask('clickVideo', click)).status).toBe('SUCCESS');
      await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: false });
      expect(await stack.storedPixels(sessionId)).toHaveLength(1);
    });

    it('everything from a user outside the session’s scope, who never sees the room', async () => {
      const outsider = await connect(otto).connected();
      expect(await outsider.join(sessionId)).toEqual(notPart);
      // The spec's error marker, so the client shows 'Error fetching chat messages'.
      expect(outsider.payloadsOf('message')).toEqual([notPart]);
      expect(outsider.state.listFailed).toBe(true);
      expect(await outsider.ask('sync', { sessionId })).toEqual(notPart);
      for (const [event, payload] of [
        ['message', { sessionId, message: 'let me in' }],
        ['syncVideoStatus', { sessionId }],
        ['clickVideo', { sessionId, x: 0.1, y: 0.1, color: 'n/a' }],
        ['joinVideoChat', { sessionId, userId: 'otto' }],
        ['syncVideoChat', { sessionId }],
        ['history', { sessionId, before: randomUUID() }],
      ] as const) {
        expect(await rawAsk(outsider, event, payload)).toEqual(notPart);
      }

      await owner.ask('message', { sessionId, message: 'Members only' });
      await owner.ask('videoStatus', { sessionId, paused: true, currentTime: 1 });
      await owner.ask('joinVideoChat', { sessionId, userId: 'researcher-peer' });
      await waitFor(() => participant.texts().includes('Members only'), 'the message in the room');
      await pause(100);
      expect(outsider.receivedEvents()).toEqual(['message', 'message']);
      expect((await stack.storedMessages(sessionId)).map((m) => m.message)).toEqual(['Members only']);
    });

    it('a flood of events beyond what is still waiting to be answered', async () => {
      const flood = await Promise.all(
        Array.from({ length: MAX_QUEUED_EVENTS * 3 }, () =>
          participant.ask('syncVideoStatus', { sessionId }),
        ),
      );
      const refused = flood.filter((answer) => answer.status === 'ERROR');
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThan(flood.length);
      expect(new Set(refused.map((answer) => JSON.stringify(answer.res)))).toEqual(
        new Set([JSON.stringify({ message: REALTIME_TEXTS.tooFast, code: 'RATE_LIMITED' })]),
      );
      expect((await participant.ask('syncVideoStatus', { sessionId })).status).toBe('SUCCESS');
    });

    // Studies' notice reaches the stack's own realtime, not this replica: as when a notice is lost,
    // the replica learns of the change from studies' answer, once its cached one is older than 200 ms.
    it('a participant removed from the scope on a replica that missed studies’ notice, who leaves the room at the next event', async () => {
      const pia = stack.person('participant', { name: 'Pia' });
      const shared = await stack.session({ owner: researcher, scope: [pat, pia] });
      const [host, leaving, staying] = await Promise.all([
        connect(researcher).connected(),
        connect(pat).connected(),
        connect(pia).connected(),
      ]);
      for (const client of [host, leaving, staying]) await client.join(shared);

      await stack.editSession(shared, { scope: [pia] });
      await pause(300);
      expect(await leaving.ask('sync', { sessionId: shared })).toEqual(notPart);
      await host.ask('message', { sessionId: shared, message: 'Pat has left' });
      await waitFor(() => staying.texts().includes('Pat has left'), 'the message to Pia');
      await pause(100);
      expect(leaving.payloadsOf('messageAdded')).toEqual([]);
    });

    it('a session that does not exist', async () => {
      const missing = { status: 'ERROR', res: { message: 'No such session.', code: 'NOT_FOUND' } };
      expect(await participant.ask('initMessage', { sessionId: randomUUID() })).toEqual(missing);
      expect(await participant.ask('message', { sessionId: randomUUID(), message: 'hello?' })).toEqual(
        missing,
      );
    });
  });

  describe('malformed payloads', () => {
    /** A good exposure event, each with an id of its own. */
    const exposureEvent = () => ({
      eventId: randomUUID(),
      kind: 'mute',
      videoTime: 1.5,
      clientTime: Date.now(),
    });
    /** A good payload of each event, the session's where it names one. */
    const good = (): Record<ClientEventName, Record<string, unknown>> => ({
      initMessage: { sessionId },
      message: { sessionId, message: 'hello', name: 'Pat' },
      videoStatus: { sessionId, paused: true, currentTime: 1 },
      syncVideoStatus: { sessionId },
      toggleParticipantClicks: { sessionId, allowClicks: true },
      clickVideo: { sessionId, x: 0.5, y: 0.5, color: 'rgb(1, 2, 3)', videoTime: 3 },
      sync: { sessionId },
      joinVideoChat: { sessionId, userId: 'peer-1' },
      syncVideoChat: { sessionId },
      history: { sessionId, before: anchorId },
      // The sender's own renewed token (the owner sends every event but clickVideo and exposure).
      renewToken: { token: stack.signIn(researcher.user).token },
      clock: {},
      firePrompt: { sessionId, promptId: anchorId },
      presenceReport: {
        sessionId,
        playback: { currentTime: 1, paused: false, at: Date.now() },
        call: { connected: true, muted: false },
      },
      monitor: { sessionId },
      // Another session of the owner's: ending this one would end the participant's connection.
      endSession: { sessionId: endedSessionId },
      reopenSession: { sessionId: endedSessionId },
      exposure: { sessionId, events: [exposureEvent()] },
    });
    /** The id of a message of the session, for history's `before`. */
    let anchorId: string;
    let endedSessionId: string;
    /** Bad versions of a good payload: wrong types, missing fields, out of range, too big, nested. */
    const badPayloads = (event: ClientEventName): unknown[] => {
      const payload = good()[event];
      const fields = Object.keys(payload);
      return [
        undefined,
        null,
        'initMessage',
        42,
        [payload],
        ...('sessionId' in payload
          ? [
              { ...payload, sessionId: 'not-an-id' },
              { ...payload, sessionId: { $ne: null } },
              { ...payload, sessionId: [sessionId] },
            ]
          : []),
        ...fields
          // Optional fields: a payload without one is good.
          .filter((f) => !['name', 'videoTime', 'playback', 'call'].includes(f))
          .map((f) => ({ ...payload, [f]: undefined })),
        ...fields.map((f) => ({
          ...payload,
          [f]: { nested: { deeper: [payload[f]] } },
        })),
        ...fields
          .filter((f) => f !== 'sessionId')
          .map((f) => ({ ...payload, [f]: 'x'.repeat(CHAT_MESSAGE_MAX_CHARS + 1) })),
        ...(event === 'clickVideo'
          ? [
              { ...payload, x: 1.01 },
              { ...payload, y: -0.5 },
              { ...payload, x: Number.NaN },
              { ...payload, color: 'url(javascript:alert(1))' },
              { ...payload, videoTime: -1 },
            ]
          : []),
        ...(event === 'videoStatus'
          ? [
              { ...payload, currentTime: -3 },
              { ...payload, paused: 'false' },
            ]
          : []),
        ...(event === 'message' ? [{ ...payload, message: '   ' }] : []),
        ...(event === 'joinVideoChat'
          ? [
              { ...payload, userId: '../../admin' },
              { ...payload, userId: '' },
            ]
          : []),
        ...(event === 'history' ? [{ ...payload, before: 'not-an-id' }] : []),
        ...(event === 'renewToken' ? [{ token: '' }, { token: 42 }] : []),
        ...(event === 'exposure'
          ? [
              { sessionId, events: [] },
              // Joins and leaves are realtime's own: a client cannot claim one.
              { sessionId, events: [{ ...exposureEvent(), kind: 'join' }] },
              { sessionId, events: [{ ...exposureEvent(), eventId: 'not-an-id' }] },
              { sessionId, events: [{ ...exposureEvent(), clientTime: -1 }] },
              { sessionId, events: Array.from({ length: EXPOSURE_EVENTS_PER_BATCH + 1 }, exposureEvent) },
            ]
          : []),
      ];
    };

    beforeAll(async () => {
      await owner.ask('toggleParticipantClicks', { sessionId, allowClicks: true });
      const [first] = await stack.storedMessages(sessionId);
      if (!first) throw new Error('the session needs a message stored by the tests above');
      anchorId = first.message_id;
      endedSessionId = await stack.session({ owner: researcher, scope: [pat] });
    });

    it.each(CLIENT_EVENT_NAMES.map((event) => [event]))(
      'of %s get an error acknowledgement',
      async (event) => {
        const sender = event === 'clickVideo' || event === 'exposure' ? participant : owner;
        // The good payload passes, so each refusal below is the payload's fault.
        expect((await rawAsk(sender, event, good()[event])).status).toBe('SUCCESS');
        for (const payload of badPayloads(event)) {
          const answer = await rawAsk(sender, event, payload);
          expect({ payload, answer }).toEqual({
            payload,
            answer: { status: 'ERROR', res: { message: expect.any(String) as string, code: 'VALIDATION' } },
          });
        }
      },
    );

    it('also sent without a callback, with several arguments, or too big for a frame: the service stays up', async () => {
      rawSocket(owner).emit('message', { sessionId, message: 42 });
      rawSocket(owner).emit('message', { sessionId, message: 'two' }, { sessionId, message: 'arguments' });
      const vandal = await connect(pat).connected();
      rawSocket(vandal).emit('message', { sessionId, message: 'x'.repeat(200_000) });
      await waitFor(() => !vandal.socket.connected, 'the oversized frame to cost its sender the connection');

      // The same service still answers, a good event still works and nothing bad was stored.
      expect((await fetch(`${replica.url}/health`)).status).toBe(200);
      const ok = await owner.ask('message', { sessionId, message: 'Still here' });
      expect(ok.status).toBe('SUCCESS');
      await waitFor(() => participant.texts().at(-1) === 'Still here', 'the good message');
      expect((await stack.storedMessages(sessionId)).map((m) => m.message)).toEqual([
        'Members only',
        'hello',
        'Still here',
      ]);
      expect(await stack.storedPixels(sessionId)).toHaveLength(2);
    });
  });
});
