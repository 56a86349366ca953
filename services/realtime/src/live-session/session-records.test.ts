import { AppError, unavailable, type AuthUser, type InternalClient } from '@uis/kit';
import { internalRoutes, type InternalRouteDef, type MessageRecord } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { SessionRecords } from './session-records';

type Item = {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  message: string;
  videoTime: number | null;
  actionId: string | null;
};

/** Records as realtime calls it: every call kept, each answered when the test says. */
function fakeRecords() {
  let seq = 0;
  const calls: { route: InternalRouteDef; items: Item[]; answer(): void; fail(error: Error): void }[] = [];
  const internal = {
    call: (route: InternalRouteDef, input: { items: Item[] }) =>
      new Promise((resolve, reject) =>
        calls.push({
          route,
          items: input.items,
          answer: () =>
            resolve({
              messages: input.items.map((item): MessageRecord => ({
                message_id: randomUUID(),
                seq: String((seq += 1)),
                message: item.message,
                name: item.name,
                time: new Date().toISOString(),
                videoTime: item.videoTime,
                actionId: item.actionId,
              })),
            }),
          fail: reject,
        }),
      ),
  } as unknown as InternalClient;
  return { calls, records: new SessionRecords(internal) };
}

const user = (name = 'Pat'): AuthUser => ({
  id: randomUUID(),
  email: 'pat@uni.test',
  name,
  type: 'participant',
  loginId: randomUUID(),
});
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionRecords.appendMessage', () => {
  const sessionId = randomUUID();

  it('sends one message at once, and what arrives meanwhile as one recordsAppendMessages call', async () => {
    const { calls, records } = fakeRecords();
    const pat = user();
    const first = records.appendMessage(pat, sessionId, 'one');
    const more = [
      records.appendMessage(pat, sessionId, 'two'),
      records.appendMessage(user('Ada'), sessionId, 'three'),
    ];
    expect(calls.map((c) => [c.route, c.items.map((i) => i.message)])).toEqual([
      [internalRoutes.recordsAppendMessages, ['one']],
    ]);
    expect(calls[0]!.items[0]).toEqual({
      sessionId,
      userId: pat.id,
      email: pat.email,
      name: 'Pat',
      message: 'one',
      videoTime: null,
      actionId: null,
    });
    calls[0]!.answer();
    expect((await first).message).toBe('one');
    await settle();
    expect(calls[1]!.items.map((i) => [i.name, i.message])).toEqual([
      ['Pat', 'two'],
      ['Ada', 'three'],
    ]);
    calls[1]!.answer();
    expect((await Promise.all(more)).map((m) => [m.name, m.message])).toEqual([
      ['Pat', 'two'],
      ['Ada', 'three'],
    ]);
  });

  it('refuses an item records would refuse on its own, with records’ words, and sends the others', async () => {
    const { calls, records } = fakeRecords();
    const blocker = records.appendMessage(user(), sessionId, 'in flight');
    const bad = records.appendMessage(user(' '), sessionId, 'from a nameless user');
    const good = records.appendMessage(user(), sessionId, 'fine');
    await expect(bad).rejects.toMatchObject({
      httpStatus: 400,
      code: 'VALIDATION',
      message: 'This field must not be empty',
    });
    calls[0]!.answer();
    await blocker;
    await settle();
    expect(calls[1]!.items.map((i) => i.message)).toEqual(['fine']);
    calls[1]!.answer();
    await expect(good).resolves.toMatchObject({ message: 'fine' });
  });

  it('a failed call fails each of its messages with the error a single append gets', async () => {
    const { calls, records } = fakeRecords();
    const blocker = records.appendMessage(user(), sessionId, 'in flight');
    const grouped = [
      records.appendMessage(user(), sessionId, 'a'),
      records.appendMessage(user(), sessionId, 'b'),
    ];
    calls[0]!.answer();
    await blocker;
    await settle();
    const down = unavailable('records did not answer /internal/records/messages/batch');
    calls[1]!.fail(down);
    for (const result of grouped) {
      const error = await result.catch((e: unknown) => e);
      expect(error).toBe(down);
      expect(error).toBeInstanceOf(AppError);
    }
  });
});
