import fs from 'node:fs';
import path from 'node:path';
import { runForFigures } from './support/child';
import { unmeasured, type GoalGroup, type GoalResult } from './support/goal';
import { fixed } from './support/measure';

/**
 * P10: the login route's JavaScript (web/scripts/check-bundle-size.mjs over the last `vite build`),
 * and that every other route's page is a chunk of its own, outside what the entry loads. P11 and P13:
 * the live-drift benchmark (scripts/bench/web/live-drift.ts, Playwright against the built `npm start`), its
 * steady-playback p95 and how soon participants follow a seek. P14: the call-reconnect benchmark
 * (scripts/bench/web/call-reconnect.ts), how soon a call carries pictures again after a reload. These are the
 * quality bounds of the live specs, measured here on a quiet machine (the specs hold behaviour only).
 */

const BUDGET_KB = 90;
const DRIFT_GOAL_P95_MS = 100;
const SEEK_FOLLOW_GOAL_P95_MS = 1000;
const CALL_BACK_GOAL_P95_MS = 5000;
const BUNDLE_LIMIT_MS = 60_000;
/** The benchmark takes 2-3 minutes (start, sign-ups, 60 s steady, 6 seeks); a loaded machine more. */
const DRIFT_LIMIT_MS = 10 * 60_000;
/** About a minute and a half (start, a call, 5 rounds of two reloads). */
const CALL_LIMIT_MS = 10 * 60_000;

// ---- P10 -----------------------------------------------------------------------------------------

interface BundleResult {
  budgetKb: number;
  totalKb: number;
  files: { file: string; gzip: number }[];
  /** Manifest keys of the entry and its static imports, transitively. */
  closureKeys: string[];
}

interface ManifestChunk {
  file: string;
  isDynamicEntry?: boolean;
}

async function bundleSize(web: string, scratch: string): Promise<BundleResult> {
  const run = await runForFigures<BundleResult>(['scripts/check-bundle-size.mjs'], {
    cwd: web,
    resultFile: path.join(scratch, 'p10-bundle-size.json'),
    limitMs: BUNDLE_LIMIT_MS,
  });
  // Over budget it exits 1 having written its figures: that is a miss, not a failure to measure.
  if (!run.figures) {
    throw new Error(`check-bundle-size (after npm run build) wrote no figures: ${run.tail.slice(-800)}`);
  }
  return run.figures;
}

interface RoutePage {
  /** Its manifest key (the source path from web/). */
  key: string;
  /** Its chunk, when the build made it one it loads on demand. */
  chunk?: string;
  onDemand: boolean;
}

/**
 * The pages of every route but the login's (web/src/pages, lazy in app.tsx): each must be a dynamic
 * entry of the build, outside the entry's static closure.
 */
function routePages(web: string, bundle: BundleResult): RoutePage[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(web, 'dist/.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const closureFiles = new Set(bundle.closureKeys.map((key) => manifest[key]?.file));
  return fs
    .readdirSync(path.join(web, 'src/pages'))
    .filter((name) => /-page\.tsx$/.test(name) && name !== 'login-page.tsx')
    .map((name) => {
      const key = `src/pages/${name}`;
      const chunk = manifest[key];
      const onDemand =
        chunk?.isDynamicEntry === true && !bundle.closureKeys.includes(key) && !closureFiles.has(chunk.file);
      return { key, chunk: chunk?.file, onDemand };
    });
}

const kb = (bytes: number) => `${fixed(bytes / 1000)} kB`;

function bundleDetails(bundle: BundleResult, pages: RoutePage[]): string {
  return [
    'web/scripts/check-bundle-size.mjs over the build `npm run bench` makes first: the gzip size of the entry chunk and',
    "every chunk it imports statically (Vite's manifest), kB = 1000 bytes. Every other route's page must be a chunk",
    'loaded on demand: a dynamic entry of the manifest, outside that closure.',
    '',
    '| login route chunk | gzip |',
    '| --- | --- |',
    ...bundle.files.map(({ file, gzip }) => `| ${file} | ${kb(gzip)} |`),
    `| **total** | **${fixed(bundle.totalKb)} kB** (budget ${bundle.budgetKb} kB) |`,
    '',
    '| route page | chunk | loaded on demand |',
    '| --- | --- | --- |',
    ...pages.map(
      (page) =>
        `| ${page.key} | ${page.chunk ?? '(none of its own)'} | ${page.onDemand ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
}

async function loginBundle(web: string, scratch: string): Promise<GoalResult> {
  const bundle = await bundleSize(web, scratch);
  const pages = routePages(web, bundle);
  const eager = pages.filter((page) => !page.onDemand);
  const lazyPart =
    eager.length === 0
      ? `all ${pages.length} other routes on demand`
      : `loaded with it: ${eager.map((p) => p.key).join(', ')}`;
  return {
    id: 'P10',
    what: 'login route JavaScript, gzip',
    goal: `<= ${BUDGET_KB} kB; every other route loaded on demand`,
    measured: `${fixed(bundle.totalKb)} kB; ${lazyPart}`,
    pass: bundle.totalKb <= BUDGET_KB && eager.length === 0,
    details: bundleDetails(bundle, pages),
    reproduce: 'BENCH_ONLY=P10 npm run bench',
  };
}

// ---- P11 -----------------------------------------------------------------------------------------

interface Spread {
  samples: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

interface DriftResult {
  settings: Record<string, number>;
  steady: Spread;
  withoutStallWindows: Spread;
  participants: (Spread & { name: string })[];
  /** ms from each seek to each participant within 100 ms for good; null: not within the window. */
  seekFollow: Spread & { seeks: number; followed: number };
  load: { before: number; after: number };
}

interface CallResult {
  settings: Record<string, number>;
  researcherReload: Spread;
  participantReload: Spread;
  all: Spread;
  load: { before: number; after: number };
}

/** Runs one of the Playwright benchmarks of bench/web (`file`) and answers the figures it wrote. */
async function webBenchmark<T>(web: string, scratch: string, file: string, limitMs: number): Promise<T> {
  const cli = require.resolve('@playwright/test/cli', { paths: [web] });
  const config = path.join(path.dirname(web), 'scripts/bench/web/playwright.config.ts');
  const run = await runForFigures<T>([cli, 'test', '-c', config, file], {
    cwd: web,
    // Its own output folder (server log, samples), not that of a bench or e2e run beside it.
    env: { E2E_OUTPUT_DIR: path.join(scratch, `${file}-output`) },
    resultFile: path.join(scratch, `${file}.json`),
    limitMs,
  });
  // A miss fails the Playwright test after the figures are written.
  if (!run.figures) {
    throw new Error(`the ${file} benchmark exited with ${run.code}, no figures: ${run.tail.slice(-1000)}`);
  }
  return run.figures;
}

const ms = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} ms`);

function driftDetails(drift: DriftResult, pass: boolean): string {
  const row = (name: string, s: Spread) =>
    `| ${name} | ${s.samples} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} |`;
  const settings = Object.entries(drift.settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  const miss = pass
    ? []
    : [
        '',
        `Without the samples soon after a player stalled (a starved CPU), p95 ${ms(drift.withoutStallWindows.p95)}; load`,
        `average ${fixed(drift.load.before, 2)} before, ${fixed(drift.load.after, 2)} after. See docs/bench/live-drift.md for the seeks.`,
      ];
  return [
    "scripts/bench/web/live-drift.ts (`npm run bench:web -w scripts`): the built `npm start`, a researcher and participants in Debian's",
    "Chromium, each participant's video position against the researcher's, sampled every 250 ms in steady playback",
    `(${settings}). Its full report, seeks included: docs/bench/live-drift.md.`,
    '',
    '| participant | samples | p50 | p95 | max |',
    '| --- | --- | --- | --- | --- |',
    ...drift.participants.map((p) => row(p.name, p)),
    row('**all**', drift.steady),
    ...miss,
  ].join('\n');
}

function syncDrift(drift: DriftResult): GoalResult {
  const p95 = drift.steady.p95;
  const pass = p95 !== null && p95 <= DRIFT_GOAL_P95_MS;
  return {
    id: 'P11',
    what: 'live session sync drift, steady playback',
    goal: `p95 <= ${DRIFT_GOAL_P95_MS} ms`,
    measured: `p95 ${ms(p95)} (p50 ${ms(drift.steady.p50)}, ${drift.participants.length} participants, ${drift.steady.samples} samples)`,
    pass,
    details: driftDetails(drift, pass),
    reproduce: 'BENCH_ONLY=P11 npm run bench',
  };
}

function seekFollow(drift: DriftResult): GoalResult {
  const { seekFollow: follow } = drift;
  const pass =
    follow.followed === follow.samples && follow.p95 !== null && follow.p95 <= SEEK_FOLLOW_GOAL_P95_MS;
  return {
    id: 'P13',
    what: 'live session: participants follow a seek while playing',
    goal: `every participant within 100 ms after every seek; p95 of the time to get there <= ${SEEK_FOLLOW_GOAL_P95_MS} ms`,
    measured: `${follow.followed} of ${follow.samples} followed; p50 ${ms(follow.p50)}, p95 ${ms(follow.p95)}, max ${ms(follow.max)}`,
    pass,
    details: [
      `The same run as P11 (scripts/bench/web/live-drift.ts): the researcher seeks ${follow.seeks} times while playing, back and`,
      'forth; for each participant, the time from the seek to the first sample after which it stayed within 100 ms of the',
      "researcher to the end of a 6 s window (samples every 250 ms: upper bounds at that resolution). Every seek's figures:",
      'docs/bench/live-drift.md.',
    ].join('\n'),
    reproduce: 'BENCH_ONLY=P13 npm run bench',
  };
}

function callBack(call: CallResult): GoalResult {
  const row = (what: string, s: Spread) =>
    `| ${what} | ${s.samples} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} |`;
  const pass = call.all.p95 !== null && call.all.p95 <= CALL_BACK_GOAL_P95_MS;
  return {
    id: 'P14',
    what: 'live call: pictures back after a reload (researcher or participant)',
    goal: `p95 <= ${CALL_BACK_GOAL_P95_MS} ms`,
    measured: `p95 ${ms(call.all.p95)} (p50 ${ms(call.all.p50)}, max ${ms(call.all.max)}, ${call.all.samples} reloads)`,
    pass,
    details: [
      "scripts/bench/web/call-reconnect.ts: a researcher and participants in a chat call (Debian's Chromium, fake camera and",
      "microphone); each round the researcher's page reloads, then a participant's. Timed from the reload to every tile",
      `of the new call, on both sides, showing new frames (${Object.entries(call.settings)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')}).`,
      '',
      '| reload | rounds | p50 | p95 | max |',
      '| --- | --- | --- | --- | --- |',
      row("the researcher's", call.researcherReload),
      row("a participant's", call.participantReload),
      row('**all**', call.all),
    ].join('\n'),
    reproduce: 'BENCH_ONLY=P14 npm run bench',
  };
}

/** One goal's failure to measure is its own miss: the other goals still count. */
const orMissed = (ids: string[], measure: () => Promise<GoalResult[]>) =>
  measure().catch((error: unknown) => unmeasured({ ...webGoals, ids }, error));

/** BENCH_ONLY=P10 need not wait minutes for P11 (the suite keeps the other's last row). */
function asked(id: string): boolean {
  const only = (process.env.BENCH_ONLY ?? '')
    .toUpperCase()
    .split(',')
    .map((part) => part.trim());
  return !only.some(Boolean) || !only.some((part) => webGoals.ids.includes(part)) || only.includes(id);
}

export const webGoals: GoalGroup = {
  ids: ['P10', 'P11', 'P13', 'P14'],
  run: async ({ repo, scratch, log }) => {
    const web = path.join(repo, 'web');
    const results: GoalResult[] = [];
    if (asked('P10'))
      results.push(...(await orMissed(['P10'], async () => [await loginBundle(web, scratch)])));
    const drift = ['P11', 'P13'].filter(asked);
    if (drift.length > 0) {
      log(`${drift.join(', ')}: the live-drift benchmark (Playwright, about 3 minutes)...`);
      results.push(
        ...(await orMissed(drift, async () => {
          const figures = await webBenchmark<DriftResult>(web, scratch, 'live-drift', DRIFT_LIMIT_MS);
          return [syncDrift(figures), seekFollow(figures)].filter((goal) => drift.includes(goal.id));
        })),
      );
    }
    if (asked('P14')) {
      log('P14: the call-reconnect benchmark (Playwright, about 2 minutes)...');
      results.push(
        ...(await orMissed(['P14'], async () => [
          callBack(await webBenchmark<CallResult>(web, scratch, 'call-reconnect', CALL_LIMIT_MS)),
        ])),
      );
    }
    return results;
  },
};
