import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '@uis/kit/testing';
import { NEWCOMER_UNSET_SETTINGS } from '@uis/proto';
import { stopStalePostmaster } from '../launcher/src/embedded-postgres';
import { runLimited, spawnGroup, stopGroup, withoutNpmEnv, type GroupChild } from './support/child';
import type { BenchContext, GoalGroup, GoalResult } from './support/goal';
import { fixed, median, sleep } from './support/measure';

/**
 * P9: `npm start` as a newcomer meets it. A fresh clone of the committed HEAD, `npm ci` there, then
 * `npm start` from spawn until the API answers /health: cold (nothing built, empty data folder: tsc -b,
 * the web build, initdb) and warm (the same again, nothing changed). Embedded Postgres and S3 and the
 * in-process queue, as without settings; free ports and a data folder in scratch so a developer's own
 * `npm start` is never in the way.
 */

const COLD_GOAL_S = 10;
const WARM_GOAL_S = 5;
const INSTALL_AND_COLD_GOAL_S = 90;
const WARM_STARTS = 3;
const INSTALL_LIMIT_MS = 5 * 60_000;
const COLD_LIMIT_MS = 5 * 60_000;
const WARM_LIMIT_MS = 2 * 60_000;

const PORT_VARIABLES = ['API_PORT', 'REALTIME_PORT', 'SIGNAL_PORT', 'EMBEDDED_PG_PORT', 'EMBEDDED_S3_PORT'];

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

async function newcomerEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const env = Object.fromEntries(
    Object.entries(withoutNpmEnv()).filter(([name]) => !NEWCOMER_UNSET_SETTINGS.includes(name)),
  );
  const ports = await distinctFreePorts(PORT_VARIABLES.length);
  PORT_VARIABLES.forEach((name, i) => (env[name] = String(ports[i])));
  return { ...env, UIS_DATA_DIR: dataDir };
}

interface StartRun {
  readyS: number;
  /** From spawn to the web step's first line: npm itself and `tsc -b`. */
  tscS: number;
  /** The web build (0 when it was up to date). */
  webS: number;
}

/** When the web step begins and ends, from `npm start`'s output lines (seconds since spawn). */
function phaseMarks(child: GroupChild, began: number): { web?: number; webDone?: number } {
  const marks: { web?: number; webDone?: number } = {};
  child.onLine((line) => {
    const at = (performance.now() - began) / 1000;
    if (line.startsWith('[web]')) marks.web ??= at;
    if (line.includes('web app up to date') || line.startsWith('check-bundle-size:')) marks.webDone ??= at;
  });
  return marks;
}

async function untilHealthy(url: string, child: GroupChild, limitMs: number, began: number): Promise<void> {
  while (performance.now() - began < limitMs) {
    if (!child.running())
      throw new Error(`npm start exited before it answered:\n${child.tail().slice(-1500)}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(
    `npm start did not answer ${url} within ${limitMs / 1000} s:\n${child.tail().slice(-1500)}`,
  );
}

/** One `npm start` from spawn to /health answering 200, then stopped as Ctrl-C would (SIGINT to its group). */
async function timeStart(clone: string, env: NodeJS.ProcessEnv, limitMs: number): Promise<StartRun> {
  const began = performance.now();
  const child = spawnGroup('npm', ['start'], { cwd: clone, env });
  const marks = phaseMarks(child, began);
  try {
    await untilHealthy(`http://127.0.0.1:${env.API_PORT}/health`, child, limitMs, began);
    const readyS = (performance.now() - began) / 1000;
    return { readyS, tscS: marks.web ?? NaN, webS: (marks.webDone ?? NaN) - (marks.web ?? NaN) };
  } finally {
    await stopGroup(child, 'SIGINT', 20_000);
  }
}

function cloneHead(repo: string, clone: string): string {
  const cloned = spawnSync('git', ['clone', '-q', repo, clone], { encoding: 'utf8' });
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).stdout.trim();
}

async function install(clone: string, env: NodeJS.ProcessEnv): Promise<number> {
  const args = ['ci', '--no-audit', '--no-fund', '--prefer-offline'];
  const run = await runLimited('npm', args, { cwd: clone, env, limitMs: INSTALL_LIMIT_MS });
  if (run.code !== 0) throw new Error(`npm ci exited with ${run.code}:\n${run.tail.slice(-1500)}`);
  return run.seconds;
}

interface Figures {
  commit: string;
  installS: number;
  cold: StartRun;
  warm: StartRun[];
}

async function measure({ repo, scratch, log }: BenchContext): Promise<Figures> {
  const clone = path.join(scratch, 'p9-clone');
  const dataDir = path.join(scratch, 'p9-data');
  try {
    const commit = cloneHead(repo, clone);
    const env = await newcomerEnv(dataDir);
    log(`P9: cloned ${commit}; npm ci...`);
    const installS = await install(clone, env);
    log(`P9: npm ci ${fixed(installS)} s; cold npm start...`);
    const cold = await timeStart(clone, env, COLD_LIMIT_MS);
    log(`P9: cold start ready in ${fixed(cold.readyS, 2)} s`);
    const warm: StartRun[] = [];
    for (let i = 0; i < WARM_STARTS; i += 1) {
      warm.push(await timeStart(clone, env, WARM_LIMIT_MS));
      log(`P9: warm start ${i + 1} ready in ${fixed(warm[i]!.readyS, 2)} s`);
    }
    return { commit, installS, cold, warm };
  } finally {
    // Stopped with its start when all went well; after a SIGKILL it would still hold the cluster.
    await stopStalePostmaster(path.join(dataDir, 'postgres'), log).catch((error: unknown) =>
      log(`P9: ${String(error)}`),
    );
    fs.rmSync(clone, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (value: number) => (Number.isFinite(value) ? `${fixed(value, 2)} s` : 'n/a');

/** The longest part of a start, for a miss: where the time goes. */
function longestPart(run: StartRun): string {
  const parts: [string, number][] = [
    ['npm and tsc -b', run.tscS],
    ['the web build', run.webS],
    ['the services until ready', run.readyS - run.tscS - run.webS],
  ];
  const [name, value] = parts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `${name} (${seconds(value)})`;
}

function details(f: Figures, warmMedian: number): string {
  const row = (name: string, run: StartRun) =>
    `| ${name} | ${seconds(run.readyS)} | ${seconds(run.tscS)} | ${seconds(run.webS)} | ${seconds(run.readyS - run.tscS - run.webS)} |`;
  return [
    `A \`git clone\` of the committed HEAD (${f.commit}; uncommitted changes are not in it), \`npm ci --no-audit --no-fund`,
    `--prefer-offline\` there (${seconds(f.installS)}), then \`npm start\` timed from spawn until \`GET /health\` on its API`,
    'port answers 200, and stopped with SIGINT to its process group (Ctrl-C). As without settings: embedded Postgres and',
    'S3, in-process queue, dev outbox; free ports and an empty data folder in scratch. Cold: nothing built yet',
    '(`tsc -b`, the web build, initdb); warm: started again with nothing changed.',
    '',
    '| start | ready | npm, tsc -b | web build | services until ready |',
    '| --- | --- | --- | --- | --- |',
    row('cold', f.cold),
    ...f.warm.map((run, i) => row(`warm ${i + 1}`, run)),
    '',
    `Goals: cold ${seconds(f.cold.readyS)} (<= ${COLD_GOAL_S} s), warm median ${seconds(warmMedian)} (<= ${WARM_GOAL_S} s),`,
    `npm ci + cold ${seconds(f.installS + f.cold.readyS)} (<= ${INSTALL_AND_COLD_GOAL_S} s). The longest part of the cold`,
    `start: ${longestPart(f.cold)}; of the slowest warm one: ${longestPart(f.warm.reduce((a, b) => (b.readyS > a.readyS ? b : a)))}.`,
  ].join('\n');
}

function result(f: Figures): GoalResult {
  const warmMedian = median(f.warm.map((run) => run.readyS));
  const installAndCold = f.installS + f.cold.readyS;
  return {
    id: 'P9',
    what: '`npm start` ready, cold and warm',
    goal: `cold <= ${COLD_GOAL_S} s, warm <= ${WARM_GOAL_S} s; npm install + first start <= ${INSTALL_AND_COLD_GOAL_S} s`,
    measured: `cold ${seconds(f.cold.readyS)}, warm ${seconds(warmMedian)} (median of ${f.warm.length}); npm ci ${seconds(f.installS)} + cold = ${seconds(installAndCold)}`,
    pass:
      f.cold.readyS <= COLD_GOAL_S && warmMedian <= WARM_GOAL_S && installAndCold <= INSTALL_AND_COLD_GOAL_S,
    details: details(f, warmMedian),
    reproduce: 'BENCH_ONLY=P9 npm run bench',
  };
}

export const startGoals: GoalGroup = {
  ids: ['P9'],
  run: async (context) => [result(await measure(context))],
};
