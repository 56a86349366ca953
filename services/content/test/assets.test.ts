import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import {
  FIXTURE_MP4,
  mp4OfSize,
  startContent,
  upload,
  type ContentHarness,
  type CastName,
  bytesOf,
} from './content-harness';

/** Collects the body as bytes whatever its content type. */
const bytes = (res: Response) => res.body as Buffer;

describe('video assets: /assets/<sessionId>/<file> with HTTP Range', () => {
  let h: ContentHarness;
  let sessionId: string;
  let path: string;
  const size = FIXTURE_MP4.length;

  beforeAll(async () => {
    h = await startContent('assets');
    sessionId = await h.session();
    await upload(h.http, h.as('owner').token, sessionId, { name: 'clip.mp4' }).expect(200);
    path = `/assets/${sessionId}/clip.mp4`;
  });
  afterAll(() => h.close());

  const get = (target = path, as: CastName | null = 'owner') => {
    const req = h.http().get(target).buffer(true).parse(bytesOf);
    return as ? req.set(h.as(as).headers) : req;
  };
  const json = (res: Response) =>
    JSON.parse(bytes(res).toString('utf8')) as { status: string; res: { message: string } };

  it('serves the whole video with the headers a player needs', async () => {
    const res = await get().expect(200);
    expect(Buffer.compare(bytes(res), FIXTURE_MP4)).toBe(0);
    expect(res.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': String(size),
      'accept-ranges': 'bytes',
      'cache-control': 'private, no-cache',
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) as string,
    });
    expect(res.headers['content-range']).toBeUndefined();
  });

  it.each([
    ['first bytes', 'bytes=0-99', 0, 99],
    ['the middle', 'bytes=1000-1999', 1000, 1999],
    ['to the end', `bytes=${size - 10}-`, size - 10, size - 1],
    ['a suffix', 'bytes=-500', size - 500, size - 1],
    ['an end past the size (clamped)', `bytes=${size - 5}-${size + 1000}`, size - 5, size - 1],
    ['one byte', 'bytes=7-7', 7, 7],
  ])('answers %s with 206 (%s)', async (_label, range, start, end) => {
    const res = await get().set('range', range).expect(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(Buffer.compare(bytes(res), FIXTURE_MP4.subarray(start, end + 1))).toBe(0);
  });

  it.each([`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0'])(
    'answers a range past the end (%s) with 416 and Content-Range: bytes */size',
    async (range) => {
      const res = await get().set('range', range).expect(416);
      expect(res.headers['content-range']).toBe(`bytes */${size}`);
      expect(json(res)).toEqual({
        status: 'ERROR',
        res: expect.objectContaining({
          message: `The requested range is outside the video, which has ${size} bytes.`,
        }) as object,
      });
    },
  );

  it.each(['bytes=5-2', 'bytes=abc', 'lines=0-10', 'bytes=0-1,4-5'])(
    'ignores a Range it cannot use (%s) and sends the whole video, as RFC 9110 says',
    async (range) => {
      const res = await get().set('range', range).expect(200);
      expect(bytes(res)).toHaveLength(size);
    },
  );

  it('answers 304 to If-None-Match with the current ETag, and a new ETag after a re-upload', async () => {
    const first = await get().expect(200);
    const etag = first.headers.etag!;
    const cached = await get().set('if-none-match', etag).expect(304);
    expect(cached.headers.etag).toBe(etag);
    await get().set('if-none-match', `W/${etag}`).expect(304);
    await get().set('if-none-match', '"something-else"').expect(200);

    const session = await h.session();
    await upload(h.http, h.as('owner').token, session, { name: 'same.mp4' }).expect(200);
    const before = await get(`/assets/${session}/same.mp4`).expect(200);
    const changed = mp4OfSize(FIXTURE_MP4.length + 12);
    await upload(h.http, h.as('owner').token, session, { name: 'same.mp4', bytes: changed }).expect(200);
    const after = await get(`/assets/${session}/same.mp4`)
      .set('if-none-match', before.headers.etag!)
      .expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(bytes(after)).toHaveLength(changed.length);
  });

  it('honours a Range only when If-Range still names this video', async () => {
    const { etag } = (await get().expect(200)).headers;
    await get().set('range', 'bytes=0-9').set('if-range', etag!).expect(206);
    const stale = await get().set('range', 'bytes=0-9').set('if-range', '"old-video"').expect(200);
    expect(bytes(stale)).toHaveLength(size);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await h.http().head(path).set(h.as('owner').headers).set('range', 'bytes=0-9').expect(206);
    expect(res.headers['content-range']).toBe(`bytes 0-9/${size}`);
    expect(res.headers['content-length']).toBe('10');
    expect(res.text ?? '').toBe('');
  });

  describe('access', () => {
    it('serves the owner and a participant in scope; others get 403, anonymous 401', async () => {
      await get(path, 'owner').expect(200);
      await get(path, 'participant').set('range', 'bytes=0-9').expect(206);
      for (const person of ['outsider', 'otherResearcher'] as const) {
        const res = await get(path, person).expect(403);
        expect(json(res).res.message).toBe('You are not part of this session.');
      }
      await get(path, null).expect(401);
    });

    it('takes the access token from the accessToken cookie, since a <video> cannot send a header', async () => {
      const res = await get(path, null)
        .set('cookie', `theme=dark; accessToken=${h.as('participant').token}`)
        .set('range', 'bytes=0-3')
        .expect(206);
      expect(Buffer.compare(bytes(res), FIXTURE_MP4.subarray(0, 4))).toBe(0);
      await get(path, null)
        .set('cookie', `accessToken=${h.as('outsider').token}`)
        .expect(403);
      await get(path, null).set('cookie', 'accessToken=not-a-token').expect(401);
      // Not in the query: a token in a URL ends up in logs and histories.
      await get(`${path}?accessToken=${h.as('owner').token}`, null).expect(401);
    });

    it('answers 404 for another file name, a session without video, or no such session; 400 for a bad id', async () => {
      expect(json(await get(`/assets/${sessionId}/other.mp4`).expect(404)).res.message).toBe(
        'No such video.',
      );
      const empty = await h.session();
      await get(`/assets/${empty}/clip.mp4`).expect(404);
      expect(json(await get(`/assets/${randomUUID()}/clip.mp4`).expect(404)).res.message).toBe(
        'No such session.',
      );
      expect(json(await get('/assets/not-an-id/clip.mp4').expect(400)).res.message).toBe(
        'sessionId: is not a valid id',
      );
      // A stranger learns nothing about the file name: 403 whatever the name.
      await get(`/assets/${sessionId}/guess.mp4`, 'otherResearcher').expect(403);
    });
  });
});
