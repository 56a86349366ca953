import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  FIXTURE_MP4,
  PNG_BYTES,
  box,
  fileHeader,
  formEnd,
  formField,
  mp4OfSize,
  rawUpload,
  startContent,
  upload,
  type ContentHarness,
  type CastName,
  bytesOf,
} from './content-harness';

const NOT_MP4 = 'Only MP4 videos can be uploaded: this file is not an MP4.';
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>document.title = "hi"</script></body></html>\n');

describe('videos', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await startContent('videos');
  });
  afterAll(() => h.close());
  // Every path, refused or not, leaves nothing in the spool directory.
  afterEach(() => expect(h.spooled()).toEqual([]));

  const up = (sessionId: string, options: Parameters<typeof upload>[3] & { as?: CastName } = {}) =>
    upload(h.http, h.as(options.as ?? 'owner').token, sessionId, options);
  const info = (sessionId: string, as: CastName = 'owner') =>
    h.http().get('/getVideoInfo').set(h.as(as).headers).query({ sessionId });

  it('uploads a generated MP4, answers its name, and stores it as one object of the session', async () => {
    const sessionId = await h.session();
    expect((await info(sessionId).expect(200)).body).toEqual({ status: 'SUCCESS', res: { name: null } });

    const res = await up(sessionId, { name: 'Interview 1.mp4' }).expect(200);
    expect(res.body).toEqual({ status: 'SUCCESS', res: { name: 'Interview_1.mp4' } });
    expect((await info(sessionId).expect(200)).body.res).toEqual({ name: 'Interview_1.mp4' });
    expect(await h.objects(`${sessionId}/`)).toHaveLength(1);

    const asset = await h
      .http()
      .get(`/assets/${sessionId}/Interview_1.mp4`)
      .set(h.as('owner').headers)
      .buffer(true)
      .parse(bytesOf)
      .expect(200);
    expect(Buffer.compare(asset.body as Buffer, FIXTURE_MP4)).toBe(0);
  });

  it('replaces the earlier video: one object per session, the old name is gone', async () => {
    const sessionId = await h.session();
    await up(sessionId, { name: 'first.mp4' }).expect(200);
    const [firstKey] = await h.objects(`${sessionId}/`);
    await up(sessionId, { name: 'second.mp4', bytes: mp4OfSize(FIXTURE_MP4.length + 10) }).expect(200);

    const keys = await h.objects(`${sessionId}/`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(firstKey);
    expect((await info(sessionId).expect(200)).body.res.name).toBe('second.mp4');
    await h.http().get(`/assets/${sessionId}/first.mp4`).set(h.as('owner').headers).expect(404);
    const head = await h
      .http()
      .head(`/assets/${sessionId}/second.mp4`)
      .set(h.as('owner').headers)
      .expect(200);
    expect(head.headers['content-length']).toBe(String(FIXTURE_MP4.length + 10));
  });

  it('streams a larger video through to the store in one piece (12 MB)', async () => {
    const sessionId = await h.session();
    const big = mp4OfSize(FIXTURE_MP4.length + 12 * 1024 * 1024);
    await up(sessionId, { name: 'big.mp4', bytes: big }).expect(200);
    const tail = await h
      .http()
      .get(`/assets/${sessionId}/big.mp4`)
      .set(h.as('owner').headers)
      .set('range', 'bytes=-16')
      .buffer(true)
      .parse(bytesOf)
      .expect(206);
    expect(tail.headers['content-range']).toBe(`bytes ${big.length - 16}-${big.length - 1}/${big.length}`);
    expect(Buffer.compare(tail.body as Buffer, big.subarray(big.length - 16))).toBe(0);
  });

  it('takes sessionId after the file too (checked when the form ends)', async () => {
    const sessionId = await h.session();
    await up(sessionId, { sessionIdField: 'last', name: 'late.mp4' }).expect(200, {
      status: 'SUCCESS',
      res: { name: 'late.mp4' },
    });
    const stranger = await up(sessionId, { sessionIdField: 'last', as: 'otherResearcher' }).expect(403);
    expect(stranger.body.res.message).toBe('Only the researcher who owns this session can do this.');
  });

  describe('refuses what is not an MP4, by content', () => {
    it.each([
      ['a PNG renamed video.mp4', PNG_BYTES],
      ['text renamed video.mp4', Buffer.from('Definitely a video, trust me. '.repeat(20))],
      ['an empty file', Buffer.alloc(0)],
      ['a file shorter than an ftyp box', FIXTURE_MP4.subarray(0, 8)],
      [
        'a QuickTime movie',
        Buffer.concat([Buffer.from('0000001466747970717420200000000071742020', 'hex'), Buffer.alloc(64)]),
      ],
      ['a bare ftyp box', FIXTURE_MP4.subarray(0, 32)],
      ['an MP4 header followed by an HTML page', Buffer.concat([FIXTURE_MP4.subarray(0, 32), HTML])],
      ['a whole MP4 followed by an HTML page', Buffer.concat([FIXTURE_MP4, HTML])],
      ['an MP4 cut short', FIXTURE_MP4.subarray(0, FIXTURE_MP4.length - 1)],
      ['an MP4 without moov', Buffer.concat([FIXTURE_MP4.subarray(0, 32), box('mdat', 4000)])],
      ['an MP4 whose next box header is malformed', Buffer.concat([FIXTURE_MP4, Buffer.alloc(8)])],
    ])('%s -> 415', async (_label, bytes) => {
      const sessionId = await h.session();
      const res = await up(sessionId, { name: 'video.mp4', bytes }).expect(415);
      expect(res.body).toEqual({ status: 'ERROR', res: { message: NOT_MP4, code: 'UNSUPPORTED_MEDIA' } });
      expect((await info(sessionId).expect(200)).body.res.name).toBeNull();
      expect(await h.objects(`${sessionId}/`)).toEqual([]);
    });

    it('refuses as soon as the structure is wrong, while the file is still being sent', async () => {
      const sessionId = await h.session();
      const { answer, abort } = rawUpload(h.env.CONTENT_URL!, h.as('owner').token, {
        headers: { 'transfer-encoding': 'chunked' },
        // An MP4's ftyp and moov, then a box header no MP4 has; the form never ends.
        chunks: [
          formField('sessionId', sessionId),
          fileHeader('file', 'x.mp4'),
          mp4OfSize(2000),
          Buffer.alloc(8),
        ],
        end: false,
      });
      const res = await answer;
      abort();
      expect([res.status, res.body.res.message]).toEqual([415, NOT_MP4]);
      expect(await h.objects(`${sessionId}/`)).toEqual([]);
    });

    it('accepts a real MP4 whatever it is called', async () => {
      const sessionId = await h.session();
      const res = await up(sessionId, { name: 'holiday.mov' }).expect(200);
      expect(res.body.res.name).toBe('holiday.mov.mp4');
    });

    it('keeps the previous video when a replacement is refused', async () => {
      const sessionId = await h.session();
      await up(sessionId, { name: 'keep.mp4' }).expect(200);
      await up(sessionId, { name: 'other.mp4', bytes: PNG_BYTES }).expect(415);
      expect((await info(sessionId).expect(200)).body.res.name).toBe('keep.mp4');
      await h.http().get(`/assets/${sessionId}/keep.mp4`).set(h.as('owner').headers).expect(200);
    });
  });

  describe('size limit (VIDEO_MAX_BYTES)', () => {
    let small: Awaited<ReturnType<ContentHarness['contentWith']>>;
    let smallUrl: string;
    beforeAll(async () => {
      small = await h.contentWith({ VIDEO_MAX_BYTES: '4000' });
      smallUrl = small.url;
    });
    afterAll(() => small.close());

    it('refuses a video larger than the limit with 413, and stores nothing', async () => {
      const sessionId = await h.session();
      expect(FIXTURE_MP4.length).toBeGreaterThan(4000);
      const res = await upload(small.http, h.as('owner').token, sessionId).expect(413);
      expect(res.body).toEqual({
        status: 'ERROR',
        res: {
          message: 'The video is larger than 3.9 KB, the most this server accepts.',
          code: 'PAYLOAD_TOO_LARGE',
        },
      });
      expect(await h.objects(`${sessionId}/`)).toEqual([]);
      // Exactly at the limit is fine.
      await upload(small.http, h.as('owner').token, sessionId, {
        bytes: mp4OfSize(4000),
      }).expect(200);
    });

    it('refuses by Content-Length before reading the body', async () => {
      const sessionId = await h.session();
      const { answer, abort } = rawUpload(smallUrl, h.as('owner').token, {
        headers: { 'content-length': 10 * 1024 ** 3 },
        chunks: [formField('sessionId', sessionId)],
        end: false,
      });
      const res = await answer;
      abort();
      expect([res.status, res.body.res.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    });

    it('stops a streamed upload (no Content-Length) as soon as it passes the limit', async () => {
      const sessionId = await h.session();
      const { answer, abort } = rawUpload(smallUrl, h.as('owner').token, {
        headers: { 'transfer-encoding': 'chunked' },
        chunks: [formField('sessionId', sessionId), fileHeader('file', 'big.mp4'), FIXTURE_MP4],
        // The form never ends: the answer must come while the client is still sending.
        end: false,
      });
      const res = await answer;
      abort();
      expect([res.status, res.body.res.message]).toEqual([
        413,
        'The video is larger than 3.9 KB, the most this server accepts.',
      ]);
      expect(await h.objects(`${sessionId}/`)).toEqual([]);
    });
  });

  it('checks the session before reading the file when sessionId comes first', async () => {
    const sessionId = await h.session();
    const { answer, abort } = rawUpload(h.env.CONTENT_URL!, h.as('otherResearcher').token, {
      headers: { 'transfer-encoding': 'chunked' },
      chunks: [formField('sessionId', sessionId), fileHeader('file', 'x.mp4'), FIXTURE_MP4.subarray(0, 100)],
      end: false,
    });
    const res = await answer;
    abort();
    expect([res.status, res.body.res.message]).toEqual([
      403,
      'Only the researcher who owns this session can do this.',
    ]);
  });

  it('refuses a session that is not of type video with 409', async () => {
    const sessionId = await h.session({ type: 'stream' });
    const res = await up(sessionId).expect(409);
    expect(res.body.res.message).toBe(
      'This is a stream session: set its type to video before uploading a video.',
    );
  });

  describe('refuses a malformed upload with a message', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = await h.session();
    });

    it('without sessionId, or with a bad one', async () => {
      const none = await up(sessionId, { sessionIdField: 'none' }).expect(400);
      expect(none.body.res.message).toBe('This field must not be empty');
      const bad = await up('not-an-id').expect(400);
      expect(bad.body.res.message).toBe('sessionId: is not a valid id');
      const late = await up('not-an-id', { sessionIdField: 'last' }).expect(400);
      expect(late.body.res.message).toBe('sessionId: is not a valid id');
    });

    it('without a file, with the file in another field, or with two files', async () => {
      const noFile = await h
        .http()
        .post('/uploadVideo')
        .set(h.as('owner').headers)
        .field('sessionId', sessionId)
        .expect(400);
      expect(noFile.body.res.message).toBe('file: choose an MP4 video to upload');
      const textFile = await h
        .http()
        .post('/uploadVideo')
        .set(h.as('owner').headers)
        .field('sessionId', sessionId)
        .field('file', 'clip.mp4')
        .expect(400);
      expect(textFile.body.res.message).toBe('file: choose an MP4 video to upload');
      const wrongField = await h
        .http()
        .post('/uploadVideo')
        .set(h.as('owner').headers)
        .field('sessionId', sessionId)
        .attach('video', FIXTURE_MP4, 'clip.mp4')
        .expect(400);
      expect(wrongField.body.res.message).toBe('Unexpected file in "video": send the video in "file".');
      const twoFiles = await h
        .http()
        .post('/uploadVideo')
        .set(h.as('owner').headers)
        .field('sessionId', sessionId)
        .attach('file', FIXTURE_MP4, 'a.mp4')
        .attach('file', FIXTURE_MP4, 'b.mp4')
        .expect(400);
      expect(twoFiles.body.res.message).toBe('Send one file only, in "file".');
    });

    it('as JSON, or as a form that is cut off', async () => {
      const json = await h
        .http()
        .post('/uploadVideo')
        .set(h.as('owner').headers)
        .send({ sessionId })
        .expect(400);
      expect(json.body.res.message).toBe(
        'Send the video as multipart/form-data, with the file in "file" and sessionId as a text field.',
      );
      const { answer } = rawUpload(h.env.CONTENT_URL!, h.as('owner').token, {
        chunks: [
          formField('sessionId', sessionId),
          fileHeader('file', 'cut.mp4'),
          FIXTURE_MP4.subarray(0, 500),
        ],
        end: true,
      });
      const cut = await answer;
      expect([cut.status, cut.body.res.message]).toEqual([
        400,
        'The upload form could not be read: Unexpected end of form.',
      ]);
      const complete = rawUpload(h.env.CONTENT_URL!, h.as('owner').token, {
        chunks: [formField('sessionId', sessionId), fileHeader('file', 'whole.mp4'), FIXTURE_MP4, formEnd()],
        end: true,
      });
      expect((await complete.answer).status).toBe(200);
    });
  });

  describe('access', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = await h.session();
      await up(sessionId, { name: 'owned.mp4' }).expect(200);
    });

    it('getVideoInfo: owner and participant in scope; others 403; anonymous 401; bad id 400', async () => {
      expect((await info(sessionId, 'participant').expect(200)).body.res).toEqual({ name: 'owned.mp4' });
      await info(sessionId, 'outsider').expect(403);
      await info(sessionId, 'otherResearcher').expect(403);
      await h.http().get('/getVideoInfo').query({ sessionId }).expect(401);
      expect((await info('x').expect(400)).body.res.message).toBe('sessionId: is not a valid id');
      expect((await info(randomUUID()).expect(404)).body.res.message).toBe('No such session.');
    });

    it('uploadVideo and deleteVideo: the owner only', async () => {
      for (const person of ['participant', 'outsider'] as const) {
        expect((await up(sessionId, { as: person }).expect(403)).body.res.message).toBe(
          'Only researchers can do this.',
        );
        await h.http().post('/deleteVideo').set(h.as(person).headers).send({ sessionId }).expect(403);
      }
      await up(sessionId, { as: 'otherResearcher' }).expect(403);
      await h
        .http()
        .post('/deleteVideo')
        .set(h.as('otherResearcher').headers)
        .send({ sessionId })
        .expect(403);
      await upload(h.http, undefined, sessionId).expect(401);
      await h.http().post('/deleteVideo').send({ sessionId }).expect(401);
      await up(randomUUID()).expect(404);
      await h
        .http()
        .post('/deleteVideo')
        .set(h.as('owner').headers)
        .send({ sessionId: randomUUID() })
        .expect(404);
      expect((await info(sessionId).expect(200)).body.res.name).toBe('owned.mp4');
    });
  });

  it('deletes a video (object and row), and deleting again succeeds', async () => {
    const sessionId = await h.session();
    await up(sessionId).expect(200);
    await h
      .http()
      .post('/deleteVideo')
      .set(h.as('owner').headers)
      .send({ sessionId })
      .expect(200, { status: 'SUCCESS', res: { message: 'Video deleted.' } });
    expect((await info(sessionId).expect(200)).body.res.name).toBeNull();
    expect(await h.objects(`${sessionId}/`)).toEqual([]);
    await h.http().post('/deleteVideo').set(h.as('owner').headers).send({ sessionId }).expect(200);
    const bad = await h
      .http()
      .post('/deleteVideo')
      .set(h.as('owner').headers)
      .send({ sessionId: 'x' })
      .expect(400);
    expect(bad.body.res.message).toBe('sessionId: is not a valid id');
  });

  it('loses the video when studies switches the session away from video (studies calls content)', async () => {
    const sessionId = await h.session();
    await up(sessionId).expect(200);
    await h.editSession(sessionId, { type: 'chat' });
    expect(await h.objects(`${sessionId}/`)).toEqual([]);
    await h.editSession(sessionId, { type: 'video' });
    expect((await info(sessionId).expect(200)).body.res.name).toBeNull();
  });

  describe('MP4s that ffmpeg makes (needs ffmpeg on the PATH)', () => {
    const run = promisify(execFile);
    let dir: string;
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-content-ffmpeg-'));
      await run('ffmpeg', ['-version']).catch(() => {
        throw new Error(
          'ffmpeg is not installed: these tests make their MP4s with it (apt-get install ffmpeg).',
        );
      });
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it.each([
      ['moov at the end, after mdat (ffmpeg default)', []],
      ['moov first (+faststart)', ['-movflags', '+faststart']],
      [
        'fragmented (moov, then moof/mdat pairs)',
        ['-movflags', 'frag_keyframe+empty_moov+default_base_moof'],
      ],
    ])('accepts %s, and serves it back byte for byte', async (label, flags) => {
      const file = path.join(dir, `${randomUUID()}.mp4`);
      // Video and sound, one second: the layout is what matters here.
      await run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine'],
        ...['-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac'],
        ...flags,
        file,
      ]);
      const bytes = fs.readFileSync(file);
      const sessionId = await h.session();
      await up(sessionId, { name: `${label}.mp4`, bytes }).expect(200);
      const { name } = (await info(sessionId).expect(200)).body.res as { name: string };
      const served = await h
        .http()
        .get(`/assets/${sessionId}/${name}`)
        .set(h.as('owner').headers)
        .buffer(true)
        .parse(bytesOf)
        .expect(200);
      expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
    });
  });

  describe("a form that sends a field twice (an upload into someone else's session)", () => {
    // The attacker owns a video session; the victim is another researcher with a video.
    const attacker: CastName = 'otherResearcher';
    let own: string;
    let victim: string;
    let victimKey: string;
    let victimChat: string;
    beforeAll(async () => {
      own = await h.session({ owner: attacker });
      victim = await h.session();
      victimChat = await h.session({ type: 'chat' });
      await up(victim, { name: 'victim.mp4' }).expect(200);
      victimKey = (await h.objects(`${victim}/`))[0]!;
    });

    /** A form with its parts in the order given: a sessionId value, or the file. */
    /** `FILE` stands for the file part. */
    const form = (parts: string[]) => {
      const req = h.http().post('/uploadVideo').set(h.as(attacker).headers);
      for (const part of parts) {
        if (part === 'FILE') void req.attach('file', mp4OfSize(FIXTURE_MP4.length + 100), 'evil.mp4');
        else void req.field('sessionId', part);
      }
      return req;
    };

    const expectNothingChanged = async () => {
      expect((await info(victim).expect(200)).body.res.name).toBe('victim.mp4');
      expect(await h.objects(`${victim}/`)).toEqual([victimKey]);
      expect((await info(victimChat).expect(200)).body.res.name).toBeNull();
      expect(await h.objects(`${victimChat}/`)).toEqual([]);
      expect(await h.objects(`${own}/`)).toEqual([]);
      await h.http().get(`/assets/${victim}/victim.mp4`).set(h.as('owner').headers).expect(200);
    };

    const seconds = [
      ["another researcher's video session", () => victim],
      ["another researcher's chat session", () => victimChat],
      ['an unknown session', () => randomUUID()],
    ] as const;

    describe.each(seconds)('with %s as the second sessionId', (_label, second) => {
      it.each([
        ['own id, file, second id (checked before the file)', (other: string) => [own, 'FILE', other]],
        ['file, own id, second id (checked after the file)', (other: string) => ['FILE', own, other]],
        ['own id, second id, file', (other: string) => [own, other, 'FILE']],
        ['file, second id, own id', (other: string) => ['FILE', other, own]],
      ])('%s -> 400 "Send sessionId only once."', async (_order, parts) => {
        const res = await form(parts(second())).expect(400);
        expect(res.body.res).toEqual({ message: 'Send sessionId only once.', code: 'VALIDATION' });
        await expectNothingChanged();
      });

      it('second id, file, own id -> refused (403 for the first id, or 400 for the repeat, whichever comes first)', async () => {
        // The check of the first id (a request to studies) races the parser reaching the repeat;
        // either refusal is right, and either way nothing is written.
        const res = await form([second(), 'FILE', own]);
        expect([400, 403, 404, 409]).toContain(res.status);
        await expectNothingChanged();
      });
    });

    it('refuses any other repeated text field too', async () => {
      const res = await h
        .http()
        .post('/uploadVideo')
        .set(h.as(attacker).headers)
        .field('sessionId', own)
        .field('note', 'one')
        .field('note', 'two')
        .attach('file', FIXTURE_MP4, 'clip.mp4')
        .expect(400);
      expect(res.body.res.message).toBe('Send note only once.');
      expect(await h.objects(`${own}/`)).toEqual([]);
    });

    it('still takes the same form with sessionId once, in either place', async () => {
      await form([own, 'FILE']).expect(200);
      await form(['FILE', own]).expect(200);
      expect(await h.objects(`${own}/`)).toHaveLength(1);
      await h.http().post('/deleteVideo').set(h.as(attacker).headers).send({ sessionId: own }).expect(200);
    });
  });
});
