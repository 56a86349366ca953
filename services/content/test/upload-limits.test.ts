import { randomUUID } from 'node:crypto';
import { waitFor, type TestPerson } from '@uis/kit/testing';
import { DataSource } from 'typeorm';
import { UploadSlots } from '../src/videos/upload-slots';
import {
  FIXTURE_MP4,
  PNG_BYTES,
  fileHeader,
  formEnd,
  formField,
  mp4OfSize,
  rawUpload,
  startContent,
  upload,
  type ContentHarness,
} from './content-harness';

/** Small enough to fill with a few fixture-sized videos. */
const QUOTA = 12_000;

describe('upload limits', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await startContent('upload_limits', { env: { VIDEO_QUOTA_BYTES: String(QUOTA) } });
  });
  afterAll(() => h.close());
  // Every path, refused or not, leaves nothing in the spool directory.
  afterEach(() => expect(h.spooled()).toEqual([]));

  const info = (sessionId: string) =>
    h.http().get('/getVideoInfo').set(h.as('owner').headers).query({ sessionId }).expect(200);
  const deleteVideo = (sessionId: string) =>
    h.http().post('/deleteVideo').set(h.as('owner').headers).send({ sessionId }).expect(200);

  describe('per-researcher storage quota (VIDEO_QUOTA_BYTES)', () => {
    const sessions: string[] = [];
    const newSession = async () => {
      const sessionId = await h.session();
      sessions.push(sessionId);
      return sessionId;
    };
    const up = (sessionId: string, size: number) =>
      upload(h.http, h.as('owner').token, sessionId, { bytes: mp4OfSize(size) });
    // Each test starts with the owner using nothing.
    afterEach(async () => {
      for (const sessionId of sessions.splice(0)) await deleteVideo(sessionId);
    });

    it('refuses the upload that would pass the quota with 413, saying what is used and the limit', async () => {
      const [a, b, c] = [await newSession(), await newSession(), await newSession()];
      await up(a, 5000).expect(200);
      await up(b, 5000).expect(200);

      const refused = await up(c, 3000).expect(413);
      expect(refused.body.res).toEqual({
        message:
          'Not enough video storage: your videos use 9.8 KB of your 11.7 KB, and this one would bring them ' +
          'to 12.7 KB. Delete a video you no longer need, or upload a smaller one.',
        code: 'PAYLOAD_TOO_LARGE',
      });
      expect((await info(c)).body.res.name).toBeNull();
      expect(await h.objects(`${c}/`)).toEqual([]);

      // Exactly up to the quota is fine; one byte more is not.
      await up(c, 2001).expect(413);
      await up(c, 2000).expect(200);
    });

    it('counts a replacement as the new size minus the old one', async () => {
      const [a, b] = [await newSession(), await newSession()];
      await up(a, 6000).expect(200);
      await up(b, 6000).expect(200);
      // Full: a larger replacement does not fit, the same size or smaller does.
      const refused = await up(a, 6001).expect(413);
      expect(refused.body.res.message).toContain('your videos use 11.7 KB of your 11.7 KB');
      await up(a, 6000).expect(200);
      await up(a, 5000).expect(200);
      await up(b, 7000).expect(200);
      await up(a, 5001).expect(413);
      expect((await h.objects(`${a}/`)).length).toBe(1);
    });

    it('frees the space of a deleted video', async () => {
      const [a, b] = [await newSession(), await newSession()];
      await up(a, 10_000).expect(200);
      await up(b, 5000).expect(413);
      await deleteVideo(a);
      await up(b, 5000).expect(200);
    });

    it('counts each researcher on their own', async () => {
      const mine = await newSession();
      await up(mine, QUOTA).expect(200);
      const theirs = await h.session({ owner: 'otherResearcher' });
      await upload(h.http, h.as('otherResearcher').token, theirs, { bytes: mp4OfSize(QUOTA) }).expect(200);
      await h
        .http()
        .post('/deleteVideo')
        .set(h.as('otherResearcher').headers)
        .send({ sessionId: theirs })
        .expect(200);
    });

    it('refuses by Content-Length before the file is read (sessionId first)', async () => {
      const sessionId = await newSession();
      const { answer, abort } = rawUpload(h.env.CONTENT_URL!, h.as('owner').token, {
        // 1 GiB announced: under VIDEO_MAX_BYTES (2 GiB), far over the quota. Only the start is sent.
        headers: { 'content-length': 1024 ** 3 },
        chunks: [
          formField('sessionId', sessionId),
          fileHeader('file', 'big.mp4'),
          FIXTURE_MP4.subarray(0, 100),
        ],
        end: false,
      });
      const res = await answer;
      abort();
      expect(res.status).toBe(413);
      expect(res.body.res.message).toMatch(
        /^Not enough video storage: your videos use 0 bytes of your 11\.7 KB, and this one would bring them to 1023\.9 MB\./,
      );
      expect(await h.objects(`${sessionId}/`)).toEqual([]);
    });

    it('does not count videos uploaded before their uploader was recorded', async () => {
      const [old, next] = [await newSession(), await newSession()];
      await up(old, 10_000).expect(200);
      // As the migration leaves rows written before it: no owner.
      await h.content.get(DataSource).query('UPDATE videos SET owner_id = NULL WHERE session_id = $1', [old]);
      await up(next, 10_000).expect(200);
      // Replacing such a video frees nothing (it was not counted) and charges the new one.
      await up(old, 3000).expect(413);
      await up(old, 2000).expect(200);
    });
  });

  describe('concurrent uploads (UPLOADS_PER_USER, UPLOADS_MAX)', () => {
    let app: Awaited<ReturnType<ContentHarness['contentWith']>>;
    let slots: UploadSlots;
    beforeAll(async () => {
      app = await h.contentWith({
        UPLOADS_PER_USER: '2',
        UPLOADS_MAX: '3',
        VIDEO_QUOTA_BYTES: String(10 ** 9),
      });
      slots = app.app.get(UploadSlots);
    });
    afterAll(() => app.close());

    /** An upload that has begun and waits for the test to finish or abort it. */
    const begin = (person: TestPerson, sessionId: string) => {
      const started = rawUpload(app.url, person.token, {
        headers: { 'transfer-encoding': 'chunked' },
        chunks: [
          formField('sessionId', sessionId),
          fileHeader('file', 'slow.mp4'),
          FIXTURE_MP4.subarray(0, 1000),
        ],
        end: false,
      });
      return {
        ...started,
        finish: () => started.finish([FIXTURE_MP4.subarray(1000), formEnd()]),
      };
    };
    const busyMessage = 'The server is busy with other uploads right now: try again in a minute.';
    const mineMessage =
      'You already have 2 uploads in progress: wait until one has finished, then try again.';

    it("refuses a researcher's third upload at once with 429; a finished or aborted upload gives its slot back", async () => {
      const { owner, otherResearcher } = h.people;
      const sessions = [await h.session(), await h.session(), await h.session()];
      const first = begin(owner, sessions[0]!);
      const second = begin(owner, sessions[1]!);
      await waitFor(() => slots.inProgress(owner.user.id) === 2, 'two uploads in progress');

      const third = await upload(app.http, owner.token, sessions[2]!).expect(429);
      expect(third.body.res).toEqual({ message: mineMessage, code: 'RATE_LIMITED' });
      // Someone else still may.
      const theirs = await h.session({ owner: 'otherResearcher' });
      await upload(app.http, otherResearcher.token, theirs).expect(200);

      // Success gives the slot back.
      first.finish();
      expect((await first.answer).status).toBe(200);
      expect(slots.inProgress(owner.user.id)).toBe(1);
      await upload(app.http, owner.token, sessions[2]!).expect(200);

      // A client that goes away gives it back too.
      second.abort();
      await expect(second.answer).rejects.toThrow();
      await waitFor(() => slots.inProgress(owner.user.id) === 0, 'the aborted upload to be released');
      expect(h.spooled()).toEqual([]);

      // And a refused upload.
      await upload(app.http, owner.token, sessions[1]!, { bytes: PNG_BYTES }).expect(415);
      await upload(app.http, owner.token, randomUUID()).expect(404);
      expect(slots.inProgress()).toBe(0);
    });

    it('refuses anyone past the process limit with 429', async () => {
      const { owner, otherResearcher } = h.people;
      const [a, b] = [await h.session(), await h.session()];
      const theirs = await h.session({ owner: 'otherResearcher' });
      const running = [begin(owner, a), begin(owner, b), begin(otherResearcher, theirs)];
      await waitFor(() => slots.inProgress() === 3, 'three uploads in progress');

      const newcomer = h.person('researcher');
      const refused = await upload(app.http, newcomer.token, randomUUID()).expect(429);
      expect(refused.body.res).toEqual({ message: busyMessage, code: 'RATE_LIMITED' });
      // Past both limits, the researcher's own is the one they can act on.
      expect((await upload(app.http, owner.token, a).expect(429)).body.res.message).toBe(mineMessage);

      for (const upload of running) {
        upload.abort();
        await expect(upload.answer).rejects.toThrow();
      }
      await waitFor(() => slots.inProgress() === 0, 'the uploads to be released');
      // The newcomer gets through to the session check now.
      await upload(app.http, newcomer.token, randomUUID()).expect(404);
    });
  });
});
