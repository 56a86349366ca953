import { z } from 'zod';
import {
  CLIENT_EVENT_NAMES,
  SERVER_EVENT_NAMES,
  ackError,
  ackOk,
  ackSchema,
  clientEventSchemas,
  serverEventSchemas,
  type Ack,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../src/events';
import { CHAT_MESSAGE_MAX_CHARS, EXPOSURE_EVENTS_PER_BATCH } from '../src/constants';

/** The messages of a failed parse, by dotted path ('' for the root). */
const issuesOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

const sessionId = '0b8f7a52-4a1e-4f4e-9d53-2f6a3a1c9e10';

describe('socket events (spec section 7)', () => {
  it("has the spec's client events, plus history, renewToken, clock, firePrompt, the monitor's two, the lifecycle's two and exposure", () => {
    expect([...CLIENT_EVENT_NAMES].sort()).toEqual(
      [
        'initMessage',
        'message',
        'videoStatus',
        'syncVideoStatus',
        'toggleParticipantClicks',
        'clickVideo',
        'sync',
        'joinVideoChat',
        'syncVideoChat',
        'history',
        'renewToken',
        'clock',
        'firePrompt',
        'presenceReport',
        'monitor',
        'endSession',
        'reopenSession',
        'exposure',
      ].sort(),
    );
  });

  it("has the spec's server events plus messageAdded, connectionEnded and accessEnded", () => {
    expect([...SERVER_EVENT_NAMES].sort()).toEqual(
      [
        'message',
        'videoStatus',
        'syncVideoStatus',
        'participantClicksToggled',
        'joinVideoChat',
        'syncVideoChat',
        'messageAdded',
        'connectionEnded',
        'accessEnded',
        'sessionEnded',
        'sessionState',
      ].sort(),
    );
  });

  const good = {
    initMessage: { sessionId },
    message: { message: 'hello', sessionId, name: 'Ada' },
    videoStatus: { paused: true, currentTime: 12.5, sessionId },
    syncVideoStatus: { sessionId },
    toggleParticipantClicks: { sessionId, allowClicks: false },
    clickVideo: { x: 0.1, y: 0.9, color: 'rgba(1, 2, 3, 255)', sessionId, name: 'Ada' },
    sync: { sessionId },
    joinVideoChat: { userId: 'peer-1', sessionId },
    syncVideoChat: { sessionId },
    history: { sessionId, before: '7d9f0c52-7c0e-4c3f-9a53-3d4f3f1f0c11' },
    renewToken: { token: 'a-new-access-token' },
    clock: {},
    firePrompt: { sessionId, promptId: '7d9f0c52-7c0e-4c3f-9a53-3d4f3f1f0c11' },
    presenceReport: {
      sessionId,
      playback: { currentTime: 3.25, paused: false, at: 1_764_000_000_000 },
      call: { connected: true, muted: false },
      sound: { muted: true },
      visible: false,
    },
    monitor: { sessionId },
    endSession: { sessionId },
    reopenSession: { sessionId },
    exposure: {
      sessionId,
      events: [
        {
          eventId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
          kind: 'stall',
          videoTime: 12.5,
          clientTime: 1_764_000_000_000,
        },
      ],
    },
  } satisfies { [E in keyof ClientToServerEvents]: Parameters<ClientToServerEvents[E]>[0] };

  it.each(CLIENT_EVENT_NAMES.map((name) => [name]))('accepts a good %s payload', (name) => {
    expect(clientEventSchemas[name].safeParse(good[name]).success).toBe(true);
  });

  const SESSION_EVENTS = CLIENT_EVENT_NAMES.filter((name) => name !== 'renewToken' && name !== 'clock');
  it.each(SESSION_EVENTS.map((name) => [name]))('refuses %s without a known session id', (name) => {
    expect(issuesOf(clientEventSchemas[name], { ...good[name], sessionId: 'room-1' })).toEqual({
      sessionId: 'is not a valid id',
    });
    expect(clientEventSchemas[name].safeParse(null).success).toBe(false);
  });

  it('refuses a presence report that does not say where the player is in numbers', () => {
    const schema = clientEventSchemas.presenceReport;
    expect(schema.safeParse({ sessionId }).success).toBe(true);
    expect(
      issuesOf(schema, { ...good.presenceReport, playback: { currentTime: -1, paused: false, at: 1 } }),
    ).toEqual({
      'playback.currentTime': 'must not be negative',
    });
    expect(issuesOf(schema, { ...good.presenceReport, call: { connected: 'yes', muted: false } })).toEqual({
      'call.connected': 'must be true or false',
    });
  });

  it('refuses an exposure batch that is empty, too long, or claims what only realtime records', () => {
    const schema = clientEventSchemas.exposure;
    const [event] = good.exposure.events;
    expect(issuesOf(schema, { sessionId, events: [] })).toEqual({ events: 'must hold at least one event' });
    expect(
      issuesOf(schema, {
        sessionId,
        events: Array.from({ length: EXPOSURE_EVENTS_PER_BATCH + 1 }, () => event),
      }),
    ).toEqual({ events: `must hold at most ${EXPOSURE_EVENTS_PER_BATCH} events` });
    expect(issuesOf(schema, { sessionId, events: [{ ...event, kind: 'join' }] })).toEqual({
      'events.0.kind': expect.stringContaining('must be one of mute') as string,
    });
    expect(issuesOf(schema, { sessionId, events: [{ ...event, videoTime: -2 }] })).toEqual({
      'events.0.videoTime': 'must not be negative',
    });
    // Without a player (a chat session) there is no video time.
    expect(
      schema.safeParse({ sessionId, events: [{ ...event, kind: 'hidden', videoTime: null }] }).success,
    ).toBe(true);
    // Older clients send neither sound nor visibility.
    expect(
      clientEventSchemas.presenceReport.safeParse({ sessionId, playback: good.presenceReport.playback })
        .success,
    ).toBe(true);
  });

  it('refuses a click outside the video area', () => {
    const schema = clientEventSchemas.clickVideo;
    expect(issuesOf(schema, { ...good.clickVideo, x: 1.5 })).toEqual({ x: 'must be from 0 to 1' });
    expect(issuesOf(schema, { ...good.clickVideo, y: -0.1 })).toEqual({ y: 'must be from 0 to 1' });
    expect(issuesOf(schema, { ...good.clickVideo, x: '0.5' })).toEqual({ x: 'must be a number from 0 to 1' });
    expect(issuesOf(schema, { ...good.clickVideo, color: 'javascript:alert(1)' })).toHaveProperty('color');
  });

  it('refuses an empty or too long chat message', () => {
    const schema = clientEventSchemas.message;
    expect(issuesOf(schema, { ...good.message, message: ' ' })).toEqual({
      message: 'This field must not be empty',
    });
    expect(schema.safeParse({ ...good.message, message: 'x'.repeat(CHAT_MESSAGE_MAX_CHARS) }).success).toBe(
      true,
    );
    expect(issuesOf(schema, { ...good.message, message: 'x'.repeat(CHAT_MESSAGE_MAX_CHARS + 1) })).toEqual({
      message: `must be at most ${CHAT_MESSAGE_MAX_CHARS} characters`,
    });
  });

  it('refuses a bad video status or click toggle', () => {
    expect(issuesOf(clientEventSchemas.videoStatus, { ...good.videoStatus, currentTime: -1 })).toEqual({
      currentTime: 'must not be negative',
    });
    expect(issuesOf(clientEventSchemas.videoStatus, { ...good.videoStatus, paused: 'yes' })).toEqual({
      paused: 'must be true or false',
    });
    expect(issuesOf(clientEventSchemas.toggleParticipantClicks, { sessionId })).toEqual({
      allowClicks: 'must be true or false',
    });
    expect(issuesOf(clientEventSchemas.videoStatus, { ...good.videoStatus, playbackRate: 16 })).toEqual({
      playbackRate: 'must be at most 4',
    });
    expect(
      clientEventSchemas.videoStatus.safeParse({ ...good.videoStatus, playbackRate: 1.5, at: 1 }).success,
    ).toBe(true);
    // What the server relays always carries the rate and its time stamp.
    expect(serverEventSchemas.videoStatus.safeParse(good.videoStatus).success).toBe(false);
  });

  it('asks the clock with nothing else', () => {
    expect(clientEventSchemas.clock.safeParse({}).success).toBe(true);
    expect(clientEventSchemas.clock.safeParse({ sessionId }).success).toBe(false);
  });

  it('takes peer ids as PeerJS does, but not an empty one', () => {
    const schema = clientEventSchemas.joinVideoChat;
    for (const userId of ['abc', 'a b', 'a_b-c', sessionId]) {
      expect(schema.safeParse({ sessionId, userId }).success).toBe(true);
    }
    for (const userId of ['', 'a  b', '-a', 'a_', 'a/b']) {
      expect(schema.safeParse({ sessionId, userId }).success).toBe(false);
    }
  });

  it('carries the list or the error marker in `message`', () => {
    const record = {
      message_id: sessionId,
      seq: '1',
      message: 'hi',
      time: '2025-01-02T03:04:05.000Z',
      name: 'Ada',
      videoTime: 12.5,
      actionId: null,
    };
    expect(serverEventSchemas.message.parse(ackOk([record]))).toEqual({ status: 'SUCCESS', res: [record] });
    expect(serverEventSchemas.message.parse(ackError('no access', 'FORBIDDEN'))).toEqual({
      status: 'ERROR',
      res: { message: 'no access', code: 'FORBIDDEN' },
    });
    expect(serverEventSchemas.message.safeParse({ status: 'SUCCESS', res: record }).success).toBe(false);
    expect(serverEventSchemas.messageAdded.parse({ sessionId, message: record }).message).toEqual(record);
  });

  it('types acknowledgements as {status, res}, a refusal with the code a REST answer would carry', () => {
    const answers: Ack<number>[] = [ackOk(1), ackError('bad'), ackError('slow down', 'RATE_LIMITED')];
    const schema = ackSchema(z.number());
    expect(answers.map((a) => schema.parse(a))).toEqual([
      { status: 'SUCCESS', res: 1 },
      { status: 'ERROR', res: { message: 'bad', code: 'VALIDATION' } },
      { status: 'ERROR', res: { message: 'slow down', code: 'RATE_LIMITED' } },
    ]);
    expect(schema.safeParse({ status: 'ERROR', res: 1 }).success).toBe(false);
  });

  it('types the server events from their schemas', () => {
    const received: unknown[] = [];
    const handlers: Pick<ServerToClientEvents, 'participantClicksToggled' | 'videoStatus'> = {
      participantClicksToggled: (payload) => received.push(payload.allowClicks),
      videoStatus: (payload) => received.push(payload.currentTime),
    };
    handlers.participantClicksToggled({ sessionId, allowClicks: true });
    handlers.videoStatus({
      sessionId,
      paused: false,
      currentTime: 3,
      playbackRate: 1,
      at: 1_700_000_000_000,
    });
    expect(received).toEqual([true, 3]);
  });
});
