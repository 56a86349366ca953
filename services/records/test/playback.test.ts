import { PlaybackRecord, internalRoutes, type InternalRequestOf } from '@uis/proto';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import {
  rawBody,
  startRecords,
  type Caller,
  type CastName,
  type RecordsHarness,
} from './support/records-harness';

let h: RecordsHarness;
beforeAll(async () => {
  h = await startRecords('playback', { EXPORT_PAGE_ROWS: '2' });
});
afterAll(() => h.close());

type Entry = Omit<InternalRequestOf<'recordsAppendPlayback'>, 'sessionId' | 'userId' | 'email' | 'name'>;

const append = (sessionId: string, entry: Entry, by: CastName = 'owner'): Promise<PlaybackRecord> =>
  h.appendPlayback(sessionId, entry, by);

const logOf = async (sessionId: string, caller: Caller = 'owner') => {
  const res = await h.http().get('/getPlayback').set(h.as(caller).headers).query({ sessionId }).expect(200);
  return (res.body.res.playback as unknown[]).map((entry) => PlaybackRecord.parse(entry));
};

describe('the playback log', () => {
  it('keeps what realtime appends, in order, with server and video time, for the owner', async () => {
    const sessionId = await h.session();
    const promptId = randomUUID();
    const before = Date.now();
    const entries = [
      await append(sessionId, { event: 'play', videoTime: 0, playbackRate: 1 }),
      await append(sessionId, { event: 'seek', videoTime: 42.25, playbackRate: 1 }),
      await append(sessionId, { event: 'rate', videoTime: 43, playbackRate: 1.5 }),
      await append(sessionId, { event: 'prompt', videoTime: 50, playbackRate: 1.5, promptId }),
      await append(sessionId, { event: 'pause', videoTime: 51.5, playbackRate: 1.5 }),
    ];
    expect(entries[3]).toEqual({
      playback_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      seq: expect.stringMatching(/^\d+$/),
      time: expect.any(String),
      name: h.users.owner.name,
      event: 'prompt',
      videoTime: 50,
      playbackRate: 1.5,
      promptId,
    });
    expect(Date.parse(entries[0]!.time)).toBeGreaterThanOrEqual(before - 1000);
    // No author e-mail or id in an answer.
    expect(JSON.stringify(entries)).not.toContain(h.users.owner.email);
    await append(await h.session(), { event: 'play', videoTime: 1, playbackRate: 1 });

    expect(await logOf(sessionId)).toEqual(entries);
  });

  it.each([
    ['participant', 403],
    ['outsider', 403],
    ['otherResearcher', 403],
    ['anonymous', 401],
  ] as const)('is not for the %s (%i)', async (caller, status) => {
    const sessionId = await h.session();
    await append(sessionId, { event: 'play', videoTime: 0, playbackRate: 1 });
    const res = await h
      .http()
      .get('/getPlayback')
      .set(h.as(caller).headers)
      .query({ sessionId })
      .expect(status);
    expect(res.body.status).toBe('ERROR');
    expect(JSON.stringify(res.body)).not.toContain('"play"');
  });

  it('of an unknown session is 404', async () => {
    const res = await h
      .http()
      .get('/getPlayback')
      .set(h.as('owner').headers)
      .query({ sessionId: randomUUID() })
      .expect(404);
    expect(res.body.res.message).toBe('No such session.');
  });

  it.each([
    ['an unknown event', { event: 'rewind' }, 'event: Invalid option: expected one of'],
    ['a negative video time', { videoTime: -1 }, 'videoTime: must not be negative'],
    ['a rate of zero', { playbackRate: 0 }, 'playbackRate: must be positive'],
    ['a prompt id that is no id', { promptId: 'p1' }, 'promptId: is not a valid id'],
  ])('refuses %s with a 400 and stores nothing', async (_label, bad, message) => {
    const sessionId = await h.session();
    const res = await h
      .internal(internalRoutes.recordsAppendPlayback, {
        sessionId,
        ...h.author('owner'),
        event: 'play',
        videoTime: 1,
        playbackRate: 1,
        ...bad,
      })
      .expect(400);
    expect(res.body.res.message).toContain(message);
    expect(await logOf(sessionId)).toEqual([]);
  });

  it('exports as CSV with the researcher’s e-mail, across pages, in order', async () => {
    const sessionId = await h.session();
    const promptId = randomUUID();
    const entries = [
      await append(sessionId, { event: 'play', videoTime: 0, playbackRate: 1 }),
      await append(sessionId, { event: 'prompt', videoTime: 5, playbackRate: 1, promptId }),
      await append(sessionId, { event: 'pause', videoTime: 7.5, playbackRate: 1 }),
    ];
    const res = await h
      .http()
      .get('/exportRecords')
      .set(h.as('owner').headers)
      .query({ sessionId, kind: 'playback' })
      .buffer(true)
      .parse(rawBody)
      .expect(200);
    const text = (res.body as Buffer).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      'session_id,playback_id,seq,participant_id,logged_at,event,video_time_ms,playback_rate,prompt_id',
    );
    expect(parse(text, { columns: true })).toEqual(
      entries.map((entry) => ({
        session_id: sessionId,
        playback_id: entry.playback_id,
        seq: entry.seq,
        participant_id: expect.stringMatching(/^P-[0-9a-f]{12}$/),
        logged_at: entry.time,
        event: entry.event,
        video_time_ms: String(entry.videoTime * 1000),
        playback_rate: '1',
        prompt_id: entry.promptId ?? '',
      })),
    );
    expect(text).not.toContain(h.users.owner.email);
  });

  it('goes with its session, and with its author’s account', async () => {
    const [gone, kept] = [await h.session(), await h.session()];
    await append(gone, { event: 'play', videoTime: 0, playbackRate: 1 });
    const keptEntry = await append(kept, { event: 'play', videoTime: 0, playbackRate: 1 });
    await h.internal(internalRoutes.recordsSessionDataDelete, { sessionIds: [gone] }).expect(200);
    await h.http().get('/getPlayback').set(h.as('owner').headers).query({ sessionId: gone }).expect(200);
    expect(await logOf(gone)).toEqual([]);
    expect(await logOf(kept)).toEqual([keptEntry]);

    const { user } = h.person('participant', { name: 'Leaving Researcher' });
    await h
      .internal(internalRoutes.recordsAppendPlayback, {
        sessionId: kept,
        userId: user.id,
        email: user.email,
        name: user.name,
        event: 'pause',
        videoTime: 3,
        playbackRate: 1,
      })
      .expect(200);
    const res = await h
      .internal(internalRoutes.recordsUserDataDelete, { userId: user.id, email: user.email })
      .expect(200);
    expect(res.body.res.message).toBe('Deleted 1 records of the user.');
    expect(await logOf(kept)).toEqual([keptEntry]);
  });
});
