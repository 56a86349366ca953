import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { StudyExportManifest, type StudyExportTable } from '@uis/proto';
import { Client } from 'pg';
import { startBenchStack, type BenchStack } from '../support/bench-stack';
import type { BenchContext, GoalGroup, GoalResult } from '../support/goal';
import { cpuMeter, fixed, rssBytes, sleep } from '../support/measure';
import { StackProfiler, type MemoryFigures } from '../support/profiles';
import { callRoute, groupWithSessions, researcher, type Researcher } from '../support/seed';

/**
 * P12 (the study export): one session of a million records (messages with reactions,
 * clicks, playback entries of 200 participants and the researcher), streamed as GET /exportStudy by
 * records running as in production (its own process, from its built main), with records' resident
 * memory sampled all along. The goal is what "must work for a million records" means: records' RSS
 * grows less than 100 MB, also while the client stops reading (backpressure), and the archive is
 * whole (every file's SHA-256 and row count as the manifest says). The archive goes to disk as a
 * browser's download does. Also written as docs/bench/study-export.md.
 */

const MESSAGES = 500_000;
const PIXELS = 450_000;
const PLAYBACK = 50_000;
const PARTICIPANTS = 200;
const MAX_RSS_GROWTH_BYTES = 100e6;
const RSS_SAMPLE_MS = 100;
/**
 * The client stops reading after this many bytes. Records goes on until the sockets' buffers between
 * them are full (megabytes on loopback, at the rate deflate makes them: seconds), then must go idle:
 * backpressure all the way to the page reads. The stall lasts until records used less than IDLE_CPU_S
 * in a second (at most STALL_LIMIT_MS), then STALL_MS more, measured.
 */
const STALL_AFTER_BYTES = 8e6;
const IDLE_CPU_S = 0.05;
const STALL_LIMIT_MS = 60_000;
const STALL_MS = 5_000;
const EXPORT_TIMEOUT_MS = 15 * 60_000;
const REPORT = 'docs/bench/study-export.md';
/**
 * The share of the records the warm-up session has: its export runs first, so the measured one
 * starts from a process that has served an export (code compiled, modules loaded), as a deployed
 * records has; the figures of that first export are reported too.
 */
const WARM_UP_SHARE = 0.01;

/** A million records in one statement per table, as realtime would have stored them over a long session. */
async function seed(bench: BenchStack, who: Researcher, sessionId: string, share = 1): Promise<number> {
  const db = new Client({ connectionString: bench.db.url, options: '-c search_path=records' });
  await db.connect();
  const began = performance.now();
  try {
    // Participant n: a stable uuid from md5, an e-mail and a name; 1 ms apart from 2025-01-01.
    const person = (n: string) => ({
      id: `md5('participant ' || (${n}))::uuid`,
      email: `'p' || (${n}) || '@bench.test'`,
      name: `'Participant ' || (${n})`,
    });
    const p = person(`g % ${PARTICIPANTS}`);
    await db.query(
      `INSERT INTO messages (session_id, author_user_id, author_email, name, message, video_time, action_id, created_at)
       SELECT $1, ${p.id}, ${p.email}, ${p.name},
         CASE WHEN g % 10 = 0 THEN ${p.name} || ' reacted with 👍'
              ELSE 'Benchmark message ' || g || ': what the participants type in a session, a line or two.' END,
         g * 0.01,
         CASE WHEN g % 10 = 0 THEN md5('action')::uuid END,
         timestamptz '2025-01-01' + g * interval '1 ms'
       FROM generate_series(1, $2) AS g`,
      [sessionId, MESSAGES * share],
    );
    await db.query(
      `INSERT INTO pixels (session_id, author_user_id, author_email, name, color, x, y, video_time, created_at)
       SELECT $1, ${p.id}, ${p.email}, ${p.name}, '#3366cc',
         (g % 1000) / 1000.0, ((g * 7) % 1000) / 1000.0, g * 0.01,
         timestamptz '2025-01-01' + g * interval '1 ms'
       FROM generate_series(1, $2) AS g`,
      [sessionId, PIXELS * share],
    );
    await db.query(
      `INSERT INTO playback (session_id, author_user_id, author_email, name, event, video_time, playback_rate, prompt_id, created_at)
       SELECT $1, $2, $3, $4, (ARRAY['play', 'pause', 'seek', 'rate', 'prompt'])[g % 5 + 1], g * 0.1, 1,
         CASE WHEN g % 5 = 4 THEN md5('prompt')::uuid END,
         timestamptz '2025-01-01' + g * interval '10 ms'
       FROM generate_series(1, $5) AS g`,
      [sessionId, who.user.id, who.user.email, who.user.name, PLAYBACK * share],
    );
    await db.query('ANALYZE messages; ANALYZE pixels; ANALYZE playback');
  } finally {
    await db.end();
  }
  return (performance.now() - began) / 1000;
}

/**
 * A few of the researcher's changes through the REST routes, so audit.csv is not empty. The ids come
 * from Postgres: getMessages would list half a million messages through records before the figures.
 */
async function audit(bench: BenchStack, who: Researcher, sessionId: string): Promise<void> {
  const db = new Client({ connectionString: bench.db.url, options: '-c search_path=records' });
  await db.connect();
  let ids: string[];
  try {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM messages WHERE session_id = $1 ORDER BY seq LIMIT 4',
      [sessionId],
    );
    ids = rows.map((row) => row.id);
  } finally {
    await db.end();
  }
  for (const messageId of ids.slice(0, 3)) {
    await callRoute(bench, 'editMessage', who, { messageId, message: 'edited' });
  }
  await callRoute(bench, 'deleteMessage', who, { messageId: ids[3]! });
}

interface Download {
  seconds: number;
  firstByteMs: number;
  bytes: number;
  rssBefore: number;
  rssMax: number;
  rssMaxWhileStalled: number;
  rssAfter: number;
  /** Seconds the stalled client waited until records went idle (the sockets' buffers full). */
  secondsToIdle: number;
  /** Records' CPU seconds over STALL_MS once idle: near 0 when it stopped reading Postgres too. */
  cpuWhileStalled: number;
  /** What the stalled client found waiting in its socket when it read again. */
  bytesBuffered: number;
  /** Records' RSS as the download went on: [bytes received, RSS]. */
  timeline: [number, number][];
}

/**
 * GET /exportStudy on records' own address, to a file; records' RSS sampled all along. The client
 * stops reading for STALL_MS after STALL_AFTER_BYTES, and runs `duringStall` then.
 */
async function download(
  bench: BenchStack,
  who: Researcher,
  sessionId: string,
  file: string,
  {
    stall = true,
    duringStall = () => sleep(STALL_MS),
    path: routePath = `/exportStudy?sessionId=${sessionId}`,
  }: { stall?: boolean; duringStall?: () => Promise<void>; path?: string } = {},
): Promise<Download> {
  const records = recordsPid(bench);
  // From a settled process: a full collection (the preload's SIGURG), then a moment, so every
  // download's growth is counted from the same kind of start.
  process.kill(records, 'SIGURG');
  await sleep(2000);
  const rssBefore = rssBytes(records);
  let rssMax = rssBefore;
  let bytes = 0;
  const timeline: [number, number][] = [];
  const sample = () => {
    const rss = rssBytes(records);
    rssMax = Math.max(rssMax, rss);
    timeline.push([bytes, rss]);
  };
  let sampler = setInterval(sample, RSS_SAMPLE_MS);
  const began = performance.now();
  const out = fs.createWriteStream(file);
  try {
    const url = `${bench.stack.serviceUrls.records}${routePath}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${who.token}` },
      signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
    });
    const firstByteMs = performance.now() - began;
    if (response.status !== 200 || !response.body)
      throw new Error(`/exportStudy answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    let stalled = !stall;
    let rssMaxWhileStalled = 0;
    let cpuWhileStalled = 0;
    let secondsToIdle = 0;
    let bytesBuffered = 0;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    /** A read begun while draining the sockets, to be awaited next (its chunk must not be lost). */
    let pending: ReturnType<typeof reader.read> | undefined;
    for (;;) {
      const { done, value } = await (pending ?? reader.read());
      pending = undefined;
      if (done) break;
      bytes += value.length;
      if (!out.write(value)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      if (!stalled && bytes >= STALL_AFTER_BYTES) {
        stalled = true;
        // Stop reading: once the sockets are full, everything from Postgres on must stop with us.
        clearInterval(sampler);
        rssMaxWhileStalled = rssBytes(records);
        const stallSampler = setInterval(
          () => (rssMaxWhileStalled = Math.max(rssMaxWhileStalled, rssBytes(records))),
          RSS_SAMPLE_MS,
        );
        const stallBegan = performance.now();
        for (;;) {
          const second = cpuMeter(() => [records]);
          await sleep(1000);
          if (second.stop() < IDLE_CPU_S || performance.now() - stallBegan > STALL_LIMIT_MS) break;
        }
        secondsToIdle = (performance.now() - stallBegan) / 1000;
        const cpu = cpuMeter(() => [records]);
        await duringStall();
        cpuWhileStalled = cpu.stop();
        clearInterval(stallSampler);
        // What waited in the sockets: read at once until a read has to wait for records.
        const waiting = bytes;
        for (;;) {
          const read = reader.read();
          const next = await Promise.race([read, sleep(50).then(() => null)]);
          if (next === null) {
            pending = read;
            break;
          }
          if (next.done) break;
          bytes += next.value.length;
          if (!out.write(next.value))
            await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        bytesBuffered = bytes - waiting;
        sampler = setInterval(sample, RSS_SAMPLE_MS);
      }
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const seconds = (performance.now() - began) / 1000;
    await sleep(RSS_SAMPLE_MS * 2);
    sample();
    return {
      seconds,
      firstByteMs,
      bytes,
      rssBefore,
      rssMax,
      rssMaxWhileStalled,
      rssAfter: rssBytes(records),
      secondsToIdle,
      cpuWhileStalled,
      bytesBuffered,
      timeline,
    };
  } finally {
    clearInterval(sampler);
    out.destroy();
  }
}

const recordsPid = (bench: BenchStack) =>
  bench.stack.processes.find((child) => child.label === 'records')!.pid;

/**
 * Not in the figures: one more download under the CPU profiler, with a heap snapshot of records
 * while the client stalls (what records holds mid-export, after a full collection), to show where
 * the time goes and that the RSS above is V8's reserved heap, not rows kept.
 */
async function diagnose(
  bench: BenchStack,
  profiler: StackProfiler,
  who: Researcher,
  sessionId: string,
  file: string,
): Promise<string> {
  const records = recordsPid(bench);
  let heap: MemoryFigures | undefined;
  const { table } = await profiler.around([{ label: 'records', pid: records }], () =>
    download(bench, who, sessionId, file, {
      duringStall: async () => {
        heap = (await profiler.heaps([records])).usage;
      },
    }),
  );
  const figures = heap
    ? `heap used ${mb(heap.heapUsed)} MB of ${mb(heap.heapTotal)} MB reserved, external ${mb(heap.external)} MB ` +
      `(array buffers ${mb(heap.arrayBuffers)} MB), RSS ${mb(heap.rss)} MB (the snapshot's own memory included)`
    : 'no heap figures';
  return [
    `A second download, not in the figures above: records' heap mid-export (client stalled, after a full collection): ${figures}.`,
    '',
    "Records' CPU profile of that download (self time):",
    '',
    table,
  ].join('\n');
}

interface Verified {
  manifest: StudyExportManifest;
  /** Every file's bytes hash as the manifest says. */
  hashesMatch: boolean;
  /** Rows of messages.csv, pixels.csv and playback.csv, as the manifest counts them. */
  records: number;
}

/** Checks the archive with the system's unzip: the manifest, and each file's SHA-256 against it. */
function verify(file: string, scratch: string): Verified {
  const dir = fs.mkdtempSync(path.join(scratch, 'unzipped-'));
  try {
    execFileSync('unzip', ['-q', file, '-d', dir]);
    const manifest = StudyExportManifest.parse(
      JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')),
    );
    let hashesMatch = true;
    for (const listed of manifest.files) {
      const hash = createHash('sha256');
      const fd = fs.openSync(path.join(dir, listed.name), 'r');
      const chunk = Buffer.alloc(1 << 20);
      let read: number;
      while ((read = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0) hash.update(chunk.subarray(0, read));
      fs.closeSync(fd);
      if (hash.digest('hex') !== listed.sha256) hashesMatch = false;
    }
    const rowsOf = (table: StudyExportTable) =>
      manifest.files.find((f) => f.name === `${table}.csv`)?.rows ?? 0;
    return { manifest, hashesMatch, records: rowsOf('messages') + rowsOf('pixels') + rowsOf('playback') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => fixed(bytes / 1e6);

/** Records' RSS when 0, 1, 5, 10, 25, 50, 75 and 100% of the archive had arrived. */
function timelinePoints({ timeline, bytes }: Download): [string, number][] {
  return [0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1].map((share) => {
    const at = timeline.find(([received]) => received >= share * bytes) ?? timeline.at(-1)!;
    return [`${fixed(share * 100, 0)}%`, at[1]];
  });
}

function report(
  figures: Download,
  warmUp: Download,
  csv: Download,
  verified: Verified,
  seedSeconds: number,
): GoalResult {
  const growth = figures.rssMax - figures.rssBefore;
  /** The download's seconds without the stall. */
  const streaming = figures.seconds - figures.secondsToIdle - STALL_MS / 1000;
  const stallGrowth = figures.rssMaxWhileStalled - figures.rssBefore;
  const expected = MESSAGES + PIXELS + PLAYBACK;
  // One message was deleted for the audit log.
  const whole = verified.hashesMatch && verified.records === expected - 1;
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return {
    id: 'P12',
    what: 'study export: a ZIP of a session of 1,000,000 records',
    goal: `records RSS growth < ${mb(MAX_RSS_GROWTH_BYTES)} MB; records idle while the client stalls; the archive whole`,
    measured:
      `RSS +${mb(growth)} MB (+${mb(stallGrowth)} MB while stalled; its messages CSV alone +${mb(csv.rssMax - csv.rssBefore)} MB); ` +
      `${fixed(streaming)} s, ` +
      `${mb(figures.bytes)} MB, ${fixed(verified.records / streaming / 1000)}k records/s; ` +
      (whole ? 'hashes and counts match' : '**archive not whole**'),
    pass: growth < MAX_RSS_GROWTH_BYTES && whole && figures.cpuWhileStalled < 0.5,
    details: [
      `One session seeded with ${MESSAGES.toLocaleString('en')} messages (every tenth a reaction), ${PIXELS.toLocaleString('en')} clicks ` +
        `of ${PARTICIPANTS} participants and ${PLAYBACK.toLocaleString('en')} playback entries of the researcher, by one ` +
        `INSERT ... SELECT generate_series per table (${fixed(seedSeconds)} s), then three edits and a deletion through the REST ` +
        'routes (the audit log); a second session with 1% of that, exported first (warm-up). GET /exportStudy?sessionId on ' +
        "records' own address (records as `npm run stack` runs it: its built main, JSON logs at info, EXPORT_PAGE_ROWS at " +
        'its default), the archive written to disk as it arrives. Before each download records is settled (a full ' +
        `collection, then 2 s); its RSS is sampled every ${RSS_SAMPLE_MS} ms. The baseline is the CSV export of the same ` +
        "session's messages (/exportRecords: the same row reads and CSV writer, no ZIP, no hashing). After " +
        `${mb(STALL_AFTER_BYTES)} MB the study export's client stops reading: the ` +
        'sockets between them fill, then records must stop reading Postgres (backpressure), not buffer the rest; the stall ' +
        `lasts until records is idle, then ${STALL_MS / 1000} s more.`,
      '',
      row(['', 'value']),
      row(['---', '---']),
      row([
        `first export after start: a session of ${(WARM_UP_SHARE * (MESSAGES + PIXELS + PLAYBACK)).toLocaleString('en')} records`,
        `${fixed(warmUp.seconds, 2)} s; records RSS ${mb(warmUp.rssBefore)} MB before, ${mb(warmUp.rssMax)} MB at most (+${mb(warmUp.rssMax - warmUp.rssBefore)} MB)`,
      ]),
      row([
        `baseline, run after: the messages CSV of the same session's ${(MESSAGES - 1).toLocaleString('en')} messages (GET /exportRecords, no ZIP)`,
        `${fixed(csv.seconds)} s, ${mb(csv.bytes)} MB; records RSS ${mb(csv.rssBefore)} MB before, ${mb(csv.rssMax)} MB at most (+${mb(csv.rssMax - csv.rssBefore)} MB)`,
      ]),
      row(['records RSS before (the measured export)', `${mb(figures.rssBefore)} MB`]),
      row(['records RSS at most', `${mb(figures.rssMax)} MB (+${mb(growth)} MB)`]),
      row([
        'records RSS at most while the client stalled',
        `${mb(figures.rssMaxWhileStalled)} MB (+${mb(stallGrowth)} MB)`,
      ]),
      row(['records RSS after', `${mb(figures.rssAfter)} MB`]),
      row(['stalled client: records idle after (the sockets full)', `${fixed(figures.secondsToIdle)} s`]),
      row([
        `stalled client: records' CPU over the next ${STALL_MS / 1000} s`,
        `${fixed(figures.cpuWhileStalled, 2)} s`,
      ]),
      row([
        'stalled client: bytes waiting in the sockets when it read again',
        `${mb(figures.bytesBuffered)} MB`,
      ]),
      row(['time to first byte', `${fixed(figures.firstByteMs)} ms`]),
      row(['whole download (the stall included)', `${fixed(figures.seconds)} s`]),
      row(['whole download without the stall', `${fixed(streaming)} s`]),
      row(['archive', `${mb(figures.bytes)} MB`]),
      row(['records in the CSVs', verified.records.toLocaleString('en')]),
      row([
        'rows per file (manifest)',
        verified.manifest.files.map((f) => `${f.name} ${f.rows.toLocaleString('en')}`).join(', '),
      ]),
      row(['uncompressed CSV', `${mb(verified.manifest.files.reduce((sum, f) => sum + f.bytes, 0))} MB`]),
      row([
        'SHA-256 of every file as the manifest says (unzip, sha256)',
        verified.hashesMatch ? 'yes' : '**no**',
      ]),
      '',
      "Records' RSS as the archive went out: it rises in the first megabytes, then holds, whatever the rows still to come.",
      "That is V8's young generation reaching its full size (two 16 MB semi-spaces): the rows die young, so the old",
      'generation stays at its live size (about 40 MB, below) with no full collection needed. What grew it before: Notes.',
      '',
      row(['archive received', ...timelinePoints(figures).map(([share]) => share)]),
      row(['---', ...timelinePoints(figures).map(() => '---')]),
      row(['records RSS', ...timelinePoints(figures).map(([, rss]) => `${mb(rss)} MB`)]),
    ].join('\n'),
    reproduce:
      'npx tsc -b, then flock /tmp/heavy.lock node scripts/dist/bench/export/study-export-goals.js (or BENCH_ONLY=P12 npm run bench)',
  };
}

async function run(context: BenchContext): Promise<GoalResult[]> {
  // The preload only acts on signals: the measured download runs as it would without it.
  const profiler = new StackProfiler(path.join(context.scratch, 'export-profiles'));
  const bench = await startBenchStack('export', context.scratch, profiler.env());
  try {
    const who = researcher(bench, 'Bench Researcher');
    const { sessionIds } = await groupWithSessions(bench, who, 2);
    const [sessionId, warmUpSession] = sessionIds as [string, string];
    context.log(`seeding ${(MESSAGES + PIXELS + PLAYBACK).toLocaleString('en')} records`);
    const seedSeconds = await seed(bench, who, sessionId);
    await seed(bench, who, warmUpSession, WARM_UP_SHARE);
    await audit(bench, who, sessionId);
    context.log(`seeded in ${fixed(seedSeconds)} s; a warm-up export, then the measured one`);
    const file = path.join(context.scratch, 'study.zip');
    const warmUp = await download(bench, who, warmUpSession, file, { stall: false });
    const figures = await download(bench, who, sessionId, file);
    context.log(`exported in ${fixed(figures.seconds)} s; verifying`);
    const verified = verify(file, context.scratch);
    context.log("the baseline: the CSV of the session's messages");
    const csv = await download(bench, who, sessionId, file, {
      stall: false,
      path: `/exportRecords?sessionId=${sessionId}&kind=messages`,
    });
    fs.rmSync(file);
    const result = report(figures, warmUp, csv, verified, seedSeconds);
    context.log('diagnostics: one more download, profiled');
    result.details += `\n\n${await diagnose(bench, profiler, who, sessionId, file)}`;
    fs.rmSync(file, { force: true });
    writeReport(context, result);
    return [result];
  } finally {
    await bench.stop();
  }
}

/**
 * docs/bench/study-export.md: this goal's own report, with the machine and the time. A hand-written
 * `## Notes` section at its end (one-off experiments) is kept from the previous report.
 */
function writeReport(context: BenchContext, result: GoalResult): void {
  const file = path.join(context.repo, REPORT);
  const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const notes = previous.includes('\n## Notes\n') ? previous.slice(previous.indexOf('\n## Notes\n') + 1) : '';
  const text = [
    '# Study export: a session of a million records (P12)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Reproduce: \`${result.reproduce}\`.`,
    '',
    `Goal: ${result.goal}. Measured: ${result.measured}. Result: ${result.pass ? 'pass' : '**miss**'}.`,
    '',
    result.details ?? '',
    '',
    ...(notes ? [notes.trimEnd(), ''] : []),
  ].join('\n');
  fs.writeFileSync(file, text);
}

export const studyExportGoals: GoalGroup = { ids: ['P12'], run };

// Alone: `node scripts/dist/bench/export/study-export-goals.js` (npm run build first).
if (require.main === module) {
  const repo = path.resolve(__dirname, '../../../..');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-bench-export-'));
  run({ repo, scratch, log: (message) => console.log(`   ${message}`) })
    .then(([result]) => {
      console.log(
        `${result!.id} ${result!.pass ? 'pass' : 'MISS'}: ${result!.measured}\nWritten to ${REPORT}.`,
      );
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => fs.rmSync(scratch, { recursive: true, force: true }));
}
