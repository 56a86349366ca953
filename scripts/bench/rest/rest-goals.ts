import path from 'node:path';
import { RECORD_LIST_PAGE_ROWS } from '@uis/proto';
import type { BenchContext, GoalGroup, GoalResult } from '../support/goal';
import { StackProfiler } from '../support/profiles';
import { startBenchStack, type BenchStack } from '../support/bench-stack';
import { cpuMeter, fixed, median } from '../support/measure';
import { benchScript, runJson, startHelperServer, type HelperServer } from '../support/child';
import type { LoadInput, LoadResult } from './load';
import { groupWithSessions, researcher, seedMessages, type Researcher } from '../support/seed';

/**
 * P6: GET /getSessions and GET /getMessages (500 rows: one page) at 200 req/s, each through the gateway
 * (nginx on TLS), direct to the service, and on a plain Express + pg server running the same
 * statements. Rounds rotate the order of the three sides. The gateway's cost is p99 through it
 * minus p99 direct, per round; the handler's is the serving processes' CPU per request.
 */

const RATE = 200;
const SECONDS = 6;
const WARMUP_SECONDS = 1;
const ROUNDS = 3;
/** One page of getMessages (records' RECORD_LIST_PAGE_ROWS): the plain handler reads as many. */
const MESSAGES = RECORD_LIST_PAGE_ROWS;
/** Sessions in the listed group (a researcher's study), and other groups beside it. */
const SESSIONS = 20;
const OTHER_GROUPS = 2;
const MAX_GATEWAY_ADDED_MS = 5;
const MIN_HANDLER_RATIO = 0.7;
const ROUND_TIMEOUT_MS = 60_000;

const SIDES = ['gateway', 'direct', 'plain'] as const;
type Side = (typeof SIDES)[number];

interface RouteCase {
  path: '/getSessions' | '/getMessages';
  query: Record<string, string>;
  /** The processes that serve it: records asks studies whether the caller may read the session. */
  services: ('studies' | 'records')[];
}

interface Round {
  route: RouteCase['path'];
  round: number;
  side: Side;
  load: LoadResult;
  /** CPU seconds per request of the serving processes (ours, or the plain server). */
  cpuPerRequest: number;
}

interface RouteSummary {
  route: RouteCase['path'];
  gatewayAddedMs: number;
  /** plain CPU per request / ours: 1 is as cheap as plain. */
  handlerRatio: number;
  p50: Record<Side, number>;
  cpuMs: Record<'ours' | 'plain', number>;
  /** Requests that failed, timed out or were dropped (the rate was not held). */
  lost: number;
}

/** A researcher with groups and sessions, one session with MESSAGES messages. */
async function seed(bench: BenchStack): Promise<{ who: Researcher; cases: RouteCase[] }> {
  const who = researcher(bench, 'Bench Researcher');
  for (let i = 0; i < OTHER_GROUPS; i += 1) await groupWithSessions(bench, who, 2);
  const { groupId, sessionIds } = await groupWithSessions(bench, who, SESSIONS);
  await seedMessages(bench, who, sessionIds[0]!, MESSAGES);
  return {
    who,
    cases: [
      { path: '/getSessions', query: { groupId }, services: ['studies'] },
      { path: '/getMessages', query: { sessionId: sessionIds[0]! }, services: ['records', 'studies'] },
    ],
  };
}

/** Rounds in turn: G D P, then P D G, so drift weighs on every side alike. */
const sideOrder = (round: number): readonly Side[] => (round % 2 === 0 ? SIDES : [...SIDES].reverse());

async function measureRound(
  bench: BenchStack,
  plain: HelperServer,
  who: Researcher,
  routeCase: RouteCase,
  side: Side,
): Promise<Omit<Round, 'round'>> {
  const base = {
    gateway: bench.stack.url,
    direct: bench.stack.serviceUrls[routeCase.services[0]!],
    plain: plain.url,
  }[side];
  const url = `${base}${routeCase.path}?${new URLSearchParams(routeCase.query).toString()}`;
  const pids =
    side === 'plain' ? () => [plain.pid] : () => routeCase.services.flatMap((label) => bench.pidsOf(label));
  const input: LoadInput = {
    url,
    headers: { authorization: `Bearer ${who.token}` },
    ca: bench.stack.ca.toString(),
    rate: RATE,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    maxInFlight: 256,
    timeoutMs: 10_000,
  };
  const cpu = cpuMeter(pids);
  const load = await runJson<LoadResult>(benchScript('rest/load.js'), input, ROUND_TIMEOUT_MS);
  return {
    route: routeCase.path,
    side,
    load,
    cpuPerRequest: cpu.stop() / Math.max(1, load.ok + load.warmupOk),
  };
}

function summarise(route: RouteCase['path'], rounds: Round[]): RouteSummary {
  const of = (side: Side) => rounds.filter((r) => r.route === route && r.side === side);
  const [gateway, direct, plain] = SIDES.map(of) as [Round[], Round[], Round[]];
  const medianOf = (list: Round[], pick: (r: Round) => number) => median(list.map(pick));
  const ours = medianOf(direct, (r) => r.cpuPerRequest);
  const plainCpu = medianOf(plain, (r) => r.cpuPerRequest);
  return {
    route,
    gatewayAddedMs: median(gateway.map((g, i) => g.load.p99 - direct[i]!.load.p99)),
    handlerRatio: plainCpu / ours,
    p50: {
      gateway: medianOf(gateway, (r) => r.load.p50),
      direct: medianOf(direct, (r) => r.load.p50),
      plain: medianOf(plain, (r) => r.load.p50),
    },
    cpuMs: { ours: ours * 1000, plain: plainCpu * 1000 },
    lost: rounds.filter((r) => r.route === route).reduce((sum, r) => sum + r.load.failed + r.load.dropped, 0),
  };
}

const passes = (s: RouteSummary) =>
  s.gatewayAddedMs <= MAX_GATEWAY_ADDED_MS && s.handlerRatio >= MIN_HANDLER_RATIO && s.lost === 0;

const name = (route: string) => route.slice(1);

/** Latencies of a server that could not keep up are its queue's, not the gateway's. */
const gatewayText = (s: RouteSummary) =>
  s.lost > 0 ? `n/a, rate not held (${name(s.route)})` : `+${fixed(s.gatewayAddedMs)} ms (${name(s.route)})`;

function measuredText(summaries: RouteSummary[]): string {
  const gateway = summaries.map(gatewayText).join(', ');
  const handler = summaries.map((s) => `${fixed(s.handlerRatio, 2)}x plain (${name(s.route)})`).join(', ');
  const lost = summaries
    .filter((s) => s.lost > 0)
    .map((s) => `${s.lost} requests not sent or failed (${name(s.route)})`);
  return [`gateway ${gateway} p99`, `handler ${handler}`, ...lost].join('; ');
}

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

function details(rounds: Round[], summaries: RouteSummary[]): string {
  const table = [
    row([
      'route',
      'round',
      'side',
      'ok / sent',
      'failed + dropped',
      'p50 ms',
      'p99 ms',
      'max ms',
      'server CPU ms/req',
      'body bytes',
    ]),
    row(Array<string>(10).fill('---')),
    ...rounds.map((r) =>
      row([
        name(r.route),
        r.round + 1,
        r.side,
        `${r.load.ok} / ${r.load.sent}`,
        r.load.failed + r.load.dropped,
        fixed(r.load.p50),
        fixed(r.load.p99),
        fixed(r.load.max),
        fixed(r.cpuPerRequest * 1000, 2),
        r.load.bodyBytes,
      ]),
    ),
  ];
  const summary = summaries.map(
    (s) =>
      `- ${name(s.route)}: p50 gateway ${fixed(s.p50.gateway)} ms, direct ${fixed(s.p50.direct)} ms, plain ${fixed(s.p50.plain)} ms; ` +
      `CPU per request ours ${fixed(s.cpuMs.ours, 2)} ms, plain ${fixed(s.cpuMs.plain, 2)} ms (${fixed(s.handlerRatio, 2)}x); ` +
      `gateway adds ${fixed(s.gatewayAddedMs)} ms at p99.`,
  );
  return [
    `${RATE} req/s open loop (latency from each request's scheduled time), ${SECONDS} s per round after a ${WARMUP_SECONDS} s warm-up, ` +
      `${ROUNDS} rounds, sides in turn (gateway, direct, plain; then reversed). Keep-alive connections; the gateway is nginx on TLS. ` +
      `getSessions lists a group of ${SESSIONS} sessions; getMessages a session of ${MESSAGES} messages.`,
    '',
    "Our handler's CPU is that of the serving processes over the direct rounds (warm-up included, per request): studies for " +
      'getSessions; records and studies for getMessages, since records asks studies (an internal HTTP call) whether the caller ' +
      "may read the session. The plain server runs the same statements (getSessions: TypeORM's, logged from the service; the " +
      'access check and the list: the plain SQL of studies and records), checks the same token and answers the same JSON, in one ' +
      'Express process, the access check in-process; Postgres is counted on neither side. ' +
      'Ours also checks the token against revocations, validates the input, logs each request, and keeps metrics.',
    '',
    ...summary,
    '',
    ...table,
  ].join('\n');
}

/** Profiled together every time: the profiler counts profiles per process. */
const PROFILED = ['studies', 'records'];

async function measure(
  context: BenchContext,
  bench: BenchStack,
  profiler: StackProfiler,
): Promise<{ rounds: Round[]; cases: RouteCase[]; profiles: string[] }> {
  const { who, cases } = await seed(bench);
  const plain = await startHelperServer(benchScript('rest/plain-server.js'), {
    databaseUrl: bench.db.url,
    jwtSecret: bench.secrets.JWT_SECRET,
  });
  try {
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const routeCase of cases) {
        for (const side of sideOrder(round)) {
          const result = await measureRound(bench, plain, who, routeCase, side);
          context.log(
            `${name(routeCase.path)} round ${round + 1} ${side}: p50 ${fixed(result.load.p50)} ms, p99 ${fixed(result.load.p99)} ms`,
          );
          rounds.push({ ...result, round });
        }
      }
    }
    // One more direct round per route under the profiler (not in the figures): where our time goes.
    const services = bench.stack.processes.filter((child) => PROFILED.includes(child.label));
    const profiles: string[] = [];
    for (const routeCase of cases) {
      const { table } = await profiler.around(services, () =>
        measureRound(bench, plain, who, routeCase, 'direct'),
      );
      profiles.push(
        `CPU profile of one more direct round of ${name(routeCase.path)} (not in the figures above):\n\n${table}`,
      );
    }
    return { rounds, cases, profiles };
  } finally {
    await plain.stop();
  }
}

async function run(context: BenchContext): Promise<GoalResult[]> {
  const profiler = new StackProfiler(path.join(context.scratch, 'rest-profiles'));
  const bench = await startBenchStack('rest', context.scratch, profiler.env());
  let measured: { rounds: Round[]; cases: RouteCase[]; profiles: string[] };
  try {
    measured = await measure(context, bench, profiler);
  } finally {
    await bench.stop();
  }
  const summaries = measured.cases.map((c) => summarise(c.path, measured.rounds));
  return [
    {
      id: 'P6',
      what: `REST getSessions, getMessages (${MESSAGES} rows) at ${RATE} req/s`,
      goal: `gateway adds <= ${MAX_GATEWAY_ADDED_MS} ms p99; handler >= ${MIN_HANDLER_RATIO}x plain Express + pg (CPU per request)`,
      measured: measuredText(summaries),
      pass: summaries.every(passes),
      details: [details(measured.rounds, summaries), ...measured.profiles].join('\n\n'),
      reproduce: 'BENCH_ONLY=P6 npm run bench',
    },
  ];
}

export const restGoals: GoalGroup = { ids: ['P6'], run };
