import { ExposureRecord, internalRoutes, type InternalRequestOf } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { startRecords, type Caller, type CastName, type RecordsHarness } from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('exposure');
});
afterAll(() => h.close());

type Item = InternalRequestOf<'recordsAppendExposure'>['items'][number];

/** An event as realtime appends it for `by` (default the participant). */
const event = (sessionId: string, fields: Partial<Item> = {}, by: CastName = 'participant'): Item => ({
  sessionId,
  ...h.author(by),
  eventId: randomUUID(),
  kind: 'mute',
  videoTime: 12.5,
  clientTime: Date.now(),
  ...fields,
});

const append = async (items: Item[]): Promise<string[]> => {
  const res = await h.internal(internalRoutes.recordsAppendExposure, { items }).expect(200);
  return res.body.res.storedIds as string[];
};

const logOf = async (sessionId: string, caller: Caller = 'owner') => {
  const res = await h
    .http()
    .get('/getExposureEvents')
    .set(h.as(caller).headers)
    .query({ sessionId })
    .expect(200);
  return (res.body.res.events as unknown[]).map((entry) => ExposureRecord.parse(entry));
};

describe('the exposure log', () => {
  it('keeps what realtime appends, in order, with the participant’s video and client time, for the owner', async () => {
    const sessionId = await h.session();
    const clientTime = Date.parse('2026-11-28T10:00:00.250Z');
    const before = Date.now();
    const items = [
      event(sessionId, { kind: 'join', videoTime: null, clientTime: null }),
      event(sessionId, { kind: 'unmute', videoTime: 0, clientTime }),
      event(sessionId, { kind: 'stall', videoTime: 3.25, clientTime: clientTime + 1000 }),
      event(sessionId, { kind: 'stall_end', videoTime: 3.25, clientTime: clientTime + 2500 }),
      event(sessionId, { kind: 'hidden', videoTime: 10, clientTime: clientTime + 9000 }),
    ];
    expect(await append(items)).toEqual(items.map((item) => item.eventId));
    await append([event(await h.session())]);

    const log = await logOf(sessionId);
    expect(log.map((e) => [e.exposure_id, e.kind, e.videoTime, e.clientTime])).toEqual([
      [items[0]!.eventId, 'join', null, null],
      [items[1]!.eventId, 'unmute', 0, '2026-11-28T10:00:00.250Z'],
      [items[2]!.eventId, 'stall', 3.25, '2026-11-28T10:00:01.250Z'],
      [items[3]!.eventId, 'stall_end', 3.25, '2026-11-28T10:00:02.750Z'],
      [items[4]!.eventId, 'hidden', 10, '2026-11-28T10:00:09.250Z'],
    ]);
    expect(log[0]).toMatchObject({ userId: h.users.participant.id, name: h.users.participant.name });
    expect(Date.parse(log[0]!.time)).toBeGreaterThanOrEqual(before - 1000);
    // The owner's list names the participant, never their e-mail.
    expect(JSON.stringify(log)).not.toContain(h.users.participant.email);
  });

  it('stores an event once however often its batch is sent, also twice in one call', async () => {
    const sessionId = await h.session();
    const first = [event(sessionId, { kind: 'hidden' }), event(sessionId, { kind: 'visible' })];
    expect(await append(first)).toEqual(first.map((item) => item.eventId));
    // The batch again (its acknowledgement was lost), with a new event behind it.
    const later = event(sessionId, { kind: 'mute' });
    expect(await append([...first, later])).toEqual([later.eventId]);
    const twice = event(sessionId, { kind: 'unmute' });
    expect(await append([twice, twice])).toEqual([twice.eventId]);

    expect((await logOf(sessionId)).map((e) => e.kind)).toEqual(['hidden', 'visible', 'mute', 'unmute']);
  });

  it.each([
    ['participant', 403],
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('is not for the %s (%i)', async (caller, status) => {
    const sessionId = await h.session();
    await append([event(sessionId, { kind: 'fullscreen_enter' })]);
    const res = await h
      .http()
      .get('/getExposureEvents')
      .set(h.as(caller).headers)
      .query({ sessionId })
      .expect(status);
    expect(res.body.status).toBe('ERROR');
    expect(JSON.stringify(res.body)).not.toContain('fullscreen_enter');
  });

  it.each([
    ['an unknown kind', { kind: 'rewind' }, 'kind: must be one of'],
    ['a negative video time', { videoTime: -1 }, 'videoTime: must not be negative'],
    ['an event id that is no id', { eventId: 'e1' }, 'eventId: is not a valid id'],
    ['a client time that is no time', { clientTime: 1.5 }, 'clientTime'],
  ])('refuses %s with a 400 and stores nothing of the call', async (_label, bad, message) => {
    const sessionId = await h.session();
    const res = await h
      .internal(internalRoutes.recordsAppendExposure, {
        items: [event(sessionId), { ...event(sessionId), ...bad }],
      })
      .expect(400);
    expect(res.body.res.message).toContain(message);
    expect(await logOf(sessionId)).toEqual([]);
  });

  it('takes only the service token', async () => {
    const sessionId = await h.session();
    await h.internal(internalRoutes.recordsAppendExposure, { items: [event(sessionId)] }, null).expect(403);
    expect(await logOf(sessionId)).toEqual([]);
  });

  it('goes with its session, its participant’s withdrawal, and their account', async () => {
    const [gone, kept] = [await h.session(), await h.session()];
    await append([event(gone)]);
    const keptIds = await append([event(kept, {}, 'owner')]);
    await h.internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [gone] }).expect(200);
    expect(await logOf(gone)).toEqual([]);

    await append([event(kept)]);
    await h
      .internal(internalRoutes.recordsWithdrawParticipant, { sessionId: kept, ...h.author('participant') })
      .expect(200);
    expect((await logOf(kept)).map((e) => e.exposure_id)).toEqual(keptIds);

    const { user } = h.person('participant', { name: 'Leaving Participant' });
    const leaving = { userId: user.id, email: user.email, name: user.name };
    await append([{ ...event(kept), ...leaving }]);
    await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: user.id, email: user.email })
      .expect(200);
    expect((await logOf(kept)).map((e) => e.exposure_id)).toEqual(keptIds);
  });
});
