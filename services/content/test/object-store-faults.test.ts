import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { waitFor } from '@uis/kit/testing';
import { ObjectStore } from '../src/videos/object-store';
import {
  FIXTURE_MP4,
  bytesOf,
  mp4OfSize,
  startContent,
  upload,
  type ContentHarness,
} from './content-harness';

const NOT_STORED =
  'The video could not be stored: the video storage is not answering. Please try again in a moment.';
const NOT_READABLE =
  'The video cannot be loaded right now: the video storage is not answering. Please try again in a moment.';
/** Large enough that neither a PUT nor a read fits in the socket buffers between the processes. */
const BIG = 32 * 1024 * 1024;

/**
 * The object store going away under content: its own s3rver (the harness's, one per file), stopped as
 * a crashed store stops (listener closed, open connections destroyed) and started again on the same
 * port, while content keeps running.
 */
describe('object store faults', () => {
  let h: ContentHarness;
  let big: Buffer;

  beforeAll(async () => {
    h = await startContent('store_faults');
    big = mp4OfSize(BIG);
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await h.s3.start();
    expect(h.spooled()).toEqual([]);
  });

  const asset = (sessionId: string, name: string) =>
    h.http().get(`/assets/${sessionId}/${name}`).set(h.as('owner').headers).buffer(true).parse(bytesOf);
  const nameOf = async (sessionId: string) =>
    (await h.http().get('/getVideoInfo').set(h.as('owner').headers).query({ sessionId }).expect(200)).body.res
      .name as string | null;

  /** A session with a video already in place, to see that a failed replacement leaves it alone. */
  const sessionWithVideo = async () => {
    const sessionId = await h.session();
    await upload(h.http, h.as('owner').token, sessionId, { name: 'before.mp4' }).expect(200);
    return { sessionId, keys: await h.objects(`${sessionId}/`) };
  };
  const expectPreviousVideoKept = async (sessionId: string, keys: string[]) => {
    expect(await h.objects(`${sessionId}/`)).toEqual(keys);
    expect(await nameOf(sessionId)).toBe('before.mp4');
    const served = await asset(sessionId, 'before.mp4').expect(200);
    expect(Buffer.compare(served.body as Buffer, FIXTURE_MP4)).toBe(0);
  };

  it('an upload whose PUT the store drops midway: 503 to try again, and the previous video stays', async () => {
    const { sessionId, keys } = await sessionWithVideo();
    // Stop the store once the PUT of this session's new object has started to arrive.
    const stopDuringPut = h.s3.onRequest((req) => {
      if (req.method === 'PUT' && req.url?.includes(`/${sessionId}/`))
        req.once('data', () => void h.s3.stop());
    });
    try {
      const res = await upload(h.http, h.as('owner').token, sessionId, {
        name: 'after.mp4',
        bytes: big,
      }).expect(503);
      expect(res.body.res).toEqual({ message: NOT_STORED, code: 'UNAVAILABLE' });
    } finally {
      stopDuringPut();
    }
    await h.s3.start();
    // s3rver, unlike S3 and MinIO, keeps the part of a PUT that arrived: content removes it once the
    // store answers again (here its readiness probe).
    await waitFor(async () => {
      await h.http().get('/ready').expect(200);
      return (await h.objects(`${sessionId}/`)).length === keys.length;
    }, 'the part of the failed upload to be removed');
    await expectPreviousVideoKept(sessionId, keys);
  });

  it('an upload while the store is down: 503 to try again, and the previous video stays', async () => {
    const { sessionId, keys } = await sessionWithVideo();
    await h.s3.stop();
    const res = await upload(h.http, h.as('owner').token, sessionId, { name: 'after.mp4' }).expect(503);
    expect(res.body.res).toEqual({ message: NOT_STORED, code: 'UNAVAILABLE' });
    expect(await nameOf(sessionId)).toBe('before.mp4');
    await h.s3.start();
    await expectPreviousVideoKept(sessionId, keys);
  });

  it('a read the store stops midway: the reader gets a cut response within seconds, not a hang', async () => {
    const sessionId = await h.session();
    await upload(h.http, h.as('owner').token, sessionId, { name: 'big.mp4', bytes: big }).expect(200);

    const req = http.get(new URL(`/assets/${sessionId}/big.mp4`, h.env.CONTENT_URL), {
      headers: { ...h.as('owner').headers, range: 'bytes=100-' },
    });
    const [res] = (await once(req, 'response')) as [http.IncomingMessage];
    expect(res.statusCode).toBe(206);
    const expected = Number(res.headers['content-length']);
    expect(expected).toBe(BIG - 100);

    // The player reads a little and the store goes away while the rest is still in it.
    let received = 0;
    const ended = new Promise<{ received: number; complete: boolean }>((resolve) => {
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ received, complete: res.complete }));
    });
    res.pause();
    await once(res, 'readable');
    const stoppedAt = Date.now();
    await h.s3.stop();
    res.resume();

    const result = await ended;
    expect(result.complete).toBe(false);
    expect(result.received).toBeLessThan(expected);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  });

  it('a read while the store is down: 503 that says so', async () => {
    const { sessionId } = await sessionWithVideo();
    await h.s3.stop();
    const res = await h.http().get(`/assets/${sessionId}/before.mp4`).set(h.as('owner').headers).expect(503);
    expect(res.body.res).toEqual({ message: NOT_READABLE, code: 'UNAVAILABLE' });
  });

  it('a delete while the store is down: 503 that says so, and the video is still there to delete later', async () => {
    const { sessionId, keys } = await sessionWithVideo();
    await h.s3.stop();
    const res = await h
      .http()
      .post('/deleteVideo')
      .set(h.as('owner').headers)
      .send({ sessionId })
      .expect(503);
    expect(res.body.res).toEqual({
      message:
        'The video could not be deleted: the video storage is not answering. Please try again in a moment.',
      code: 'UNAVAILABLE',
    });
    await h.s3.start();
    await expectPreviousVideoKept(sessionId, keys);
    await h.http().post('/deleteVideo').set(h.as('owner').headers).send({ sessionId }).expect(200);
    expect(await h.objects(`${sessionId}/`)).toEqual([]);
  });

  it('works again once the store is back, without restarting content', async () => {
    const { sessionId } = await sessionWithVideo();
    await h.s3.stop();
    await upload(h.http, h.as('owner').token, sessionId, { name: 'after.mp4' }).expect(503);
    await h.http().get(`/assets/${sessionId}/before.mp4`).set(h.as('owner').headers).expect(503);

    await h.s3.start();
    await upload(h.http, h.as('owner').token, sessionId, { name: 'after.mp4', bytes: big }).expect(200);
    expect(await h.objects(`${sessionId}/`)).toHaveLength(1);
    const served = await asset(sessionId, 'after.mp4')
      .set('range', `bytes=-${FIXTURE_MP4.length}`)
      .expect(206);
    expect(Buffer.compare(served.body as Buffer, big.subarray(big.length - FIXTURE_MP4.length))).toBe(0);
  });
});

/**
 * A store that stops answering but keeps its connections open (a hung process, a network that
 * drops packets): nothing fails by itself, so the store's idle limit must. A bare HTTP server plays
 * that store: it answers the bucket check, then takes requests and goes silent.
 */
describe('a store that stops answering with the connection left open', () => {
  const IDLE_MS = 300;
  let server: http.Server;
  let store: ObjectStore;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-content-frozen-'));
    server = http.createServer((req, res) => {
      if (req.method === 'HEAD') return void res.writeHead(200).end(); // the bucket exists
      if (req.method === 'GET') {
        // The first bytes of the object, then silence.
        res.writeHead(206, { 'content-length': 1_000_000 });
        res.write(Buffer.alloc(1000));
        return;
      }
      req.resume(); // takes the whole PUT, then never answers
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    store = new ObjectStore({
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      bucket: 'frozen',
      region: 'us-east-1',
      idleTimeoutMs: IDLE_MS,
    });
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a PUT fails once the store has been silent for the idle limit', async () => {
    const file = path.join(dir, 'video.mp4');
    fs.writeFileSync(file, FIXTURE_MP4);
    const started = Date.now();
    await expect(
      store.putFile(
        's/v.mp4',
        { path: file, size: FIXTURE_MP4.length, sha256: 'a'.repeat(64), md5: 'x' },
        'video/mp4',
      ),
    ).rejects.toThrow(/neither sent nor took a byte/);
    expect(Date.now() - started).toBeLessThan(IDLE_MS * 10);
  });

  it('a read that stops mid-stream errors once the store has been silent for the idle limit', async () => {
    const body = await store.read('s/v.mp4', 0, 1_000_000);
    const started = Date.now();
    let received = 0;
    body!.on('data', (chunk: Buffer) => (received += chunk.length));
    const [error] = (await once(body!, 'error').catch((failure: unknown) => [failure])) as [Error];
    expect(error.message).toMatch(/neither sent nor took a byte|aborted/);
    expect(received).toBe(1000);
    expect(Date.now() - started).toBeLessThan(IDLE_MS * 10);
  });
});
