import { internalRoutes } from '@uis/proto';
import { startStudies, type StudiesHarness, type TestPerson } from './studies-harness';
import { CHAT_SOURCE_MESSAGE, VIDEO_SOURCE_MESSAGE } from '../src/sessions/stream-source';

const VIDEO_PAGE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const STREAM_MESSAGE =
  'source: a stream needs a video page URL with a v= parameter (e.g. https://www.youtube.com/watch?v=...) ' +
  'or a direct media URL (.mp4, .webm, .ogg, .ogv, .m3u8, .mpd, .mov)';

describe('session type changes (spec section 4) and stream sources', () => {
  let h: StudiesHarness;
  let ada: TestPerson;
  let groupId: string;
  beforeAll(async () => {
    h = await startStudies('session_types');
    ada = h.person('researcher');
    groupId = (await h.http().post('/createGroup').set(ada.headers).send({}).expect(200)).body.res.group
      .group_id;
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.content.reset();
    h.records.reset();
  });

  const newSession = async (): Promise<string> => {
    const res = await h.http().post('/createSession').set(ada.headers).send({ groupId }).expect(200);
    h.content.reset();
    return res.body.res.session.session_id as string;
  };
  const edit = (body: Record<string, unknown>) =>
    h.http().post('/editSessionInfo').set(ada.headers).send(body);
  const infoOf = async (sessionId: string) =>
    (await h.http().get('/getSessionInfo').query({ sessionId }).set(ada.headers).expect(200)).body.res
      .sessionInfo as Record<string, unknown>;

  it('asks content to remove the video before saving a type other than video', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, source: 'intro.mp4' }).expect(200);
    await edit({ sessionId, type: 'chat' }).expect(200);
    expect(h.content.callsTo(internalRoutes.contentVideoDelete)).toEqual([{ sessionId }]);
    // The video is gone, so is the source that named it.
    expect(await infoOf(sessionId)).toMatchObject({ type: 'chat', source: '' });
    // Not a change away from video any more: no further call.
    await edit({ sessionId, type: 'stream' }).expect(200);
    expect(h.content.callsTo(internalRoutes.contentVideoDelete)).toHaveLength(1);
    expect(h.records.calls).toEqual([]);
  });

  it('changes nothing when content cannot remove the video, and works on retry', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, title: 'Keep me', source: 'intro.mp4' }).expect(200);
    h.content.failNext(internalRoutes.contentVideoDelete);
    const failed = await edit({ sessionId, type: 'stream', source: VIDEO_PAGE, title: 'Changed' }).expect(
      503,
    );
    expect(failed.body.res.code).toBe('UNAVAILABLE');
    expect(failed.body.res.message).toMatch(
      /^The session was not changed: its video could not be removed \(content/,
    );
    expect(await infoOf(sessionId)).toMatchObject({ type: 'video', source: 'intro.mp4', title: 'Keep me' });

    await edit({ sessionId, type: 'stream', source: VIDEO_PAGE, title: 'Changed' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'stream', source: VIDEO_PAGE, title: 'Changed' });
    expect(h.content.callsTo(internalRoutes.contentVideoDelete)).toEqual([{ sessionId }]);
  });

  it('clears the source when switching away from stream, without asking content', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, type: 'stream', source: VIDEO_PAGE }).expect(200);
    h.content.reset();
    await edit({ sessionId, type: 'chat' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'chat', source: '' });
    expect(h.content.calls).toEqual([]);

    await edit({ sessionId, type: 'stream', source: VIDEO_PAGE }).expect(200);
    await edit({ sessionId, type: 'video' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'video', source: '' });
    expect(h.content.calls).toEqual([]);
  });

  it('keeps a source sent in the same edit as the type', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, type: 'stream', source: VIDEO_PAGE }).expect(200);
    await edit({ sessionId, type: 'video', source: 'lecture.mp4' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'video', source: 'lecture.mp4' });
  });

  it('keeps the source when the type does not change', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, type: 'stream', source: VIDEO_PAGE }).expect(200);
    await edit({ sessionId, type: 'stream', title: 'Same type' }).expect(200);
    await edit({ sessionId, track: 'notes' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'stream', source: VIDEO_PAGE, track: 'notes' });
  });

  it.each([
    VIDEO_PAGE,
    'https://video.example.org/watch?list=x&v=abc',
    'https://cdn.example.org/clip.mp4',
    'http://cdn.example.org/live/index.m3u8',
    'https://cdn.example.org/movie.WEBM',
  ])('accepts the stream source %s', async (source) => {
    const sessionId = await newSession();
    await edit({ sessionId, type: 'stream', source }).expect(200);
    await edit({ sessionId, source }).expect(200);
    expect((await infoOf(sessionId)).source).toBe(source);
  });

  it.each([
    'youtube.com/watch?v=abc',
    'https://www.youtube.com/watch',
    'https://youtu.be/dQw4w9WgXcQ',
    'ftp://cdn.example.org/clip.mp4',
    'https://cdn.example.org/clip.avi',
    'just words',
  ])('refuses the stream source %s, sent with the type or alone', async (source) => {
    const sessionId = await newSession();
    // Type and source together, on a video session: refused before content is asked anything.
    const together = await edit({ sessionId, type: 'stream', source }).expect(400);
    expect(together.body.res).toEqual({
      message: STREAM_MESSAGE,
      code: 'VALIDATION',
      issues: [{ path: 'source', message: STREAM_MESSAGE.replace('source: ', '') }],
    });
    expect(h.content.calls).toEqual([]);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'video', source: '' });

    // Source alone, on a stream session.
    await edit({ sessionId, type: 'stream' }).expect(200);
    const alone = await edit({ sessionId, source }).expect(400);
    expect(alone.body.res.message).toBe(STREAM_MESSAGE);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'stream', source: '' });
    // (A type change alone clears the source, so it never carries an old source into a stream.)
  });

  it('allows an empty stream source (cleared, or not filled in yet)', async () => {
    const sessionId = await newSession();
    await edit({ sessionId, type: 'stream' }).expect(200);
    await edit({ sessionId, source: VIDEO_PAGE }).expect(200);
    await edit({ sessionId, source: '  ' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'stream', source: '' });
  });

  it("takes a file-name label as a video's source and nothing as a chat's (no URL ever reaches a player)", async () => {
    const sessionId = await newSession();
    await edit({ sessionId, source: 'any file name.mp4' }).expect(200);
    for (const source of ['javascript:alert(1)', 'https://evil.example/x.mp4', '../x.mp4']) {
      const refused = await edit({ sessionId, source }).expect(400);
      expect(refused.body.res.issues).toEqual([{ path: 'source', message: VIDEO_SOURCE_MESSAGE }]);
    }
    const chat = await edit({ sessionId, type: 'chat', source: 'whatever' }).expect(400);
    expect(chat.body.res.message).toBe(`source: ${CHAT_SOURCE_MESSAGE}`);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'video', source: 'any file name.mp4' });
    await edit({ sessionId, type: 'chat' }).expect(200);
    expect(await infoOf(sessionId)).toMatchObject({ type: 'chat', source: '' });
  });
});
