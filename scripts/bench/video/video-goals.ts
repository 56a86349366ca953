import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { TINY_MP4, freePort } from '@uis/kit/testing';
import { videoAssetPath } from '@uis/proto';
import { Client } from 'pg';
import { DEFAULT_S3_BUCKET, startEmbeddedS3, type EmbeddedS3 } from '../../launcher/src/embedded-s3';
import { benchScript, runJson } from '../support/child';
import { callRoute, groupWithSessions, researcher, type Researcher } from '../support/seed';
import { startBenchStack, type BenchStack } from '../support/bench-stack';
import { StackProfiler } from '../support/profiles';
import type { BenchContext, GoalGroup, GoalResult } from '../support/goal';
import { fixed, median, rssBytes, sleep } from '../support/measure';
import type { RangeInput, RangeRound } from './range-reads';
import type { UploadInput, UploadResult } from './upload';

/**
 * P7: a 1 GiB video uploaded through the gateway while content's resident memory is sampled, then
 * ranged reads of it through the gateway beside the same ranges straight from the object store.
 * The stack's S3 server is started here (the one `npm start` embeds), so its key pair is known.
 */

const MiB = 1024 * 1024;
const VIDEO_BYTES = 1024 * MiB;
const RANGE_BYTES = MiB;
const READS = 60;
const ROUNDS = 3;
const RSS_SAMPLE_MS = 100;
const MAX_RSS_GROWTH_BYTES = 100 * 1000 * 1000;
const MAX_TTFB_RATIO = 1.2;
const UPLOAD_TIMEOUT_MS = 150_000;
const READS_TIMEOUT_MS = 90_000;

/**
 * An MP4 of `bytes` that content's structure check accepts: a real small MP4 (ftyp, moov, mdat)
 * followed by one `free` box up to the size. Sparse on disk, so it costs nothing to make.
 */
function writeVideo(file: string, bytes: number): void {
  const fixture = fs.readFileSync(TINY_MP4);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(bytes - fixture.length, 0);
  header.write('free', 4, 'latin1');
  fs.writeFileSync(file, Buffer.concat([fixture, header]));
  fs.truncateSync(file, bytes);
}

/** A session of type video, owned by `who`. */
async function videoSession(bench: BenchStack, who: Researcher): Promise<string> {
  const { sessionIds } = await groupWithSessions(bench, who, 1);
  await callRoute(bench, 'editSessionInfo', who, { sessionId: sessionIds[0]!, type: 'video' });
  return sessionIds[0]!;
}

interface UploadFigures {
  upload: UploadResult;
  rssBefore: number;
  rssMax: number;
}

/** The upload, content's RSS sampled all along: before, and the most it reached. */
async function upload(
  bench: BenchStack,
  who: Researcher,
  sessionId: string,
  file: string,
): Promise<UploadFigures> {
  const content = bench.stack.processes.find((child) => child.label === 'content')!.pid;
  const rssBefore = rssBytes(content);
  let rssMax = rssBefore;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssBytes(content))), RSS_SAMPLE_MS);
  try {
    const input: UploadInput = {
      url: `${bench.stack.url}/uploadVideo`,
      ca: bench.stack.ca.toString(),
      token: who.token,
      sessionId,
      file,
      name: 'bench.mp4',
    };
    const result = await runJson<UploadResult>(benchScript('video/upload.js'), input, UPLOAD_TIMEOUT_MS);
    if (result.status !== 200)
      throw new Error(`the upload answered ${result.status}: ${result.answer.slice(0, 300)}`);
    // A last look once the answer is in: the spooled file's PUT has ended by then.
    await sleep(RSS_SAMPLE_MS);
    return { upload: result, rssBefore, rssMax: Math.max(rssMax, rssBytes(content)) };
  } finally {
    clearInterval(sampler);
  }
}

/** Where content keeps the video in the store. */
async function storedVideo(bench: BenchStack, sessionId: string): Promise<{ key: string; name: string }> {
  const db = new Client({ connectionString: bench.db.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ object_key: string; name: string }>(
      'SELECT object_key, name FROM content.videos WHERE session_id = $1',
      [sessionId],
    );
    if (!rows[0]) throw new Error('the uploaded video has no row in content.videos');
    return { key: rows[0].object_key, name: rows[0].name };
  } finally {
    await db.end();
  }
}

async function rangeReads(
  bench: BenchStack,
  s3: EmbeddedS3,
  who: Researcher,
  sessionId: string,
  rounds = ROUNDS,
): Promise<RangeRound[]> {
  const { key, name } = await storedVideo(bench, sessionId);
  const input: RangeInput = {
    gateway: {
      url: `${bench.stack.url}${videoAssetPath(sessionId, name)}`,
      ca: bench.stack.ca.toString(),
      token: who.token,
    },
    contentUrl: `${bench.stack.serviceUrls.content}${videoAssetPath(sessionId, name)}`,
    direct: {
      endpoint: s3.env.S3_ENDPOINT,
      bucket: s3.env.S3_BUCKET,
      key,
      accessKey: s3.env.S3_ACCESS_KEY,
      secretKey: s3.env.S3_SECRET_KEY,
      region: 'us-east-1',
    },
    size: VIDEO_BYTES,
    rangeBytes: RANGE_BYTES,
    reads: READS,
    rounds,
  };
  return runJson<RangeRound[]>(benchScript('video/range-reads.js'), input, READS_TIMEOUT_MS);
}

const mb = (bytes: number) => fixed(bytes / 1e6);

function result(figures: UploadFigures, rounds: RangeRound[]): GoalResult {
  const growth = figures.rssMax - figures.rssBefore;
  const ttfb = { gateway: median(rounds.map((r) => r.gateway)), direct: median(rounds.map((r) => r.direct)) };
  const ttfbRatio = ttfb.gateway / ttfb.direct;
  const failed = rounds.reduce((sum, r) => sum + r.failed, 0);
  const { seconds, bytes } = figures.upload;
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const failures = failed > 0 ? `; ${failed} reads failed` : '';
  return {
    id: 'P7',
    what: 'video: 1 GiB upload through the gateway; Range reads',
    goal: `content RSS growth < ${mb(MAX_RSS_GROWTH_BYTES)} MB; Range TTFB through the gateway <= ${MAX_TTFB_RATIO}x the object store direct`,
    measured:
      `RSS +${mb(growth)} MB; upload ${fixed(seconds)} s (${fixed(bytes / MiB / seconds)} MiB/s); ` +
      `TTFB ${fixed(ttfb.gateway, 2)} ms vs direct ${fixed(ttfb.direct, 2)} ms (${fixed(ttfbRatio, 2)}x)${failures}`,
    pass: growth < MAX_RSS_GROWTH_BYTES && ttfbRatio <= MAX_TTFB_RATIO && failed === 0,
    details: [
      `Upload: one multipart POST of a ${VIDEO_BYTES / MiB} MiB MP4 (the test fixture followed by a \`free\` box) through the gateway ` +
        `(nginx on TLS, request buffering off) to content, which spools it to disk while checking and hashing it, then PUTs it ` +
        `to the S3 server. Content's RSS, sampled every ${RSS_SAMPLE_MS} ms: ${mb(figures.rssBefore)} MB before, ` +
        `${mb(figures.rssMax)} MB at most (+${mb(growth)} MB). The time is until content answered, so it includes the PUT.`,
      '',
      `Range reads: ${READS} reads of ${RANGE_BYTES / MiB} MiB at random offsets per side and round, one at a time over ` +
        'keep-alive connections, the sides alternating read by read at the same offsets. Through the gateway is nginx (TLS), ' +
        "content (token check, studies' access check over internal HTTP, the videos row), then content's ranged GET to the " +
        'S3 server, streamed back; direct is a signed ranged GET to the S3 server over plain http. TTFB is until the first ' +
        "body byte. The S3 server is s3rver, embedded in the benchmark's own process. The content column reads the same " +
        "path on content's own address (plain http, no nginx): the gap to the gateway column is nginx and TLS, the rest content's.",
      '',
      row([
        'round',
        'TTFB gateway p50 ms',
        'TTFB direct p50 ms',
        'ratio',
        'TTFB content (no nginx) p50 ms',
        'whole range gateway p50 ms',
        'whole range direct p50 ms',
        'failed',
      ]),
      row(Array<string>(8).fill('---')),
      ...rounds.map((r, i) =>
        row([
          i + 1,
          fixed(r.gateway, 2),
          fixed(r.direct, 2),
          fixed(r.gateway / r.direct, 2),
          fixed(r.content, 2),
          fixed(r.gatewayAll, 1),
          fixed(r.directAll, 1),
          r.failed,
        ]),
      ),
    ].join('\n'),
    reproduce: 'BENCH_ONLY=P7 npm run bench',
  };
}

const PROFILED = ['content', 'studies'];

async function measure(context: BenchContext, s3: EmbeddedS3): Promise<GoalResult> {
  const uploads = fs.mkdtempSync(path.join(context.scratch, 'uploads-'));
  const profiler = new StackProfiler(path.join(context.scratch, 'video-profiles'));
  const bench = await startBenchStack('video', context.scratch, {
    ...s3.env,
    UPLOAD_TMP_DIR: uploads,
    ...profiler.env(),
  });
  try {
    const who = researcher(bench, 'Bench Researcher');
    const sessionId = await videoSession(bench, who);
    const file = path.join(context.scratch, 'bench.mp4');
    writeVideo(file, VIDEO_BYTES);
    context.log(`uploading ${VIDEO_BYTES / MiB} MiB`);
    const figures = await upload(bench, who, sessionId, file);
    fs.rmSync(file);
    context.log(`uploaded in ${fixed(figures.upload.seconds)} s; range reads`);
    const goal = result(figures, await rangeReads(bench, s3, who, sessionId));
    // Where content's time goes on a read: one more round under the profiler, not in the figures.
    const services = bench.stack.processes.filter((child) => PROFILED.includes(child.label));
    const profiled = await profiler.around(services, () => rangeReads(bench, s3, who, sessionId, 1));
    goal.details += `\n\nCPU profile of one more round of reads (content and studies; not in the figures above):\n\n${profiled.table}`;
    return goal;
  } finally {
    await bench.stop();
  }
}

async function run(context: BenchContext): Promise<GoalResult[]> {
  const directory = fs.mkdtempSync(path.join(context.scratch, 's3-'));
  const s3 = await startEmbeddedS3({
    directory,
    port: await freePort(),
    bucket: DEFAULT_S3_BUCKET,
    accessKey: `bench${randomBytes(8).toString('hex')}`,
    secretKey: randomBytes(32).toString('hex'),
  });
  try {
    return [await measure(context, s3)];
  } finally {
    await s3.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

export const videoGoals: GoalGroup = { ids: ['P7'], run };
