import path from 'node:path';
import { Redis } from 'ioredis';
import { startBenchStack, type BenchStack } from '../support/bench-stack';
import { bucketGrowth } from '../support/heap-summary';
import { StackProfiler, type MemoryFigures } from '../support/profiles';
import type { BenchContext, GoalGroup, GoalResult } from '../support/goal';
import {
  cpuMeter,
  cpuSeconds,
  fixed,
  interleaved,
  median,
  quantile,
  ratio,
  rssBytes,
  sleep,
} from '../support/measure';
import { startBareStack, type BareStack } from './bare-stack';
import { joinCost, messageCost } from './history-cost';
import { LoadProcess } from './load-process';
import type { ConnectReport, RoundReport, Target } from './load-protocol';
import { makeSessions, writeHistory, type BenchSession } from './sessions';

/**
 * P1-P5, live chat against a bare socket.io server: our stack (`npm run stack`: two realtime
 * replicas on Redis behind the nginx gateway, records and studies, Postgres) and two bare servers
 * on the same Redis adapter behind the same gateway config. Each target has its own load generator
 * process with the same sockets (SESSIONS sessions of SIZE people). In order, so that each phase
 * sees the machine it is about:
 * 1. P3 and P5: join storms (every socket within STORM_MS, each session with HISTORY messages),
 *    interleaved; resident memory of the servers before the first (fresh processes, which counts
 *    their warm-up against them) and after the last.
 * 2. P1 and P2: chat rounds (one message a second per session), interleaved, with the CPU of every
 *    process of each target (ours: services, gateway, Postgres backends; both: Redis).
 * 3. P4, one client at a time, the load generators' sockets closed: one join and one message in a
 *    session with 10 and with 100,000 messages (ratios of interleaved rounds).
 */

const SESSIONS = Number(process.env.BENCH_CHAT_SESSIONS ?? 200);
const SIZE = 10;
const HISTORY = 1000;
const STORM_MS = 10_000;
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 10);
const PAIRS = 3;
const REDIS_URL = 'redis://127.0.0.1:6379';

interface Targets {
  ours: BenchStack;
  bare: BareStack;
  load: Record<Target, LoadProcess>;
  redisPid: number;
  postgresPids: number[];
}

async function redisPid(): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1] ?? 0);
  } finally {
    redis.disconnect();
  }
}

const serverPids = (t: Targets, target: Target) =>
  target === 'ours' ? [...t.ours.ourPids(), ...t.postgresPids, t.redisPid] : [...t.bare.pids(), t.redisPid];

const realtimePids = (t: Targets, target: Target) =>
  target === 'ours' ? [...t.ours.pidsOf('realtime-1'), ...t.ours.pidsOf('realtime-2')] : t.bare.serverPids();

/** Until the servers of both targets use under 5% of a core for a second (at most 30 s). */
async function settle(t: Targets): Promise<void> {
  const all = () => [...serverPids(t, 'ours'), ...serverPids(t, 'bare')];
  for (let waited = 0; waited < 30; waited += 1) {
    const busy = cpuMeter(all);
    await sleep(1000);
    if (busy.stop() < 0.05) return;
  }
}

export const chatGoals: GoalGroup = {
  ids: ['P1', 'P2', 'P3', 'P4', 'P5'],
  async run(context) {
    context.log('starting our stack and the bare servers');
    const profiler = new StackProfiler(path.join(context.scratch, 'profiles'));
    const ours = await startBenchStack('chat', context.scratch, {
      LIVE_WRITE_LIMIT: '10000',
      ...profiler.env(),
    });
    let bare: BareStack | undefined;
    const loads: LoadProcess[] = [];
    try {
      bare = await startBareStack(context.scratch, REDIS_URL, profiler.dir);
      const studies = ours.stack.serviceUrls.studies;
      const sessions = await makeSessions(studies, ours.secrets.JWT_SECRET!, SESSIONS, SIZE);
      const [short, long] = await makeSessions(studies, ours.secrets.JWT_SECRET!, 2, 1);
      context.log(
        `writing history: ${HISTORY} messages in each of ${SESSIONS} sessions, 10 and 100,000 in two more`,
      );
      await writeHistory(
        ours.db.url,
        sessions.map((s) => s.sessionId),
        HISTORY,
      );
      await writeHistory(ours.db.url, [short!.sessionId], 10);
      await writeHistory(ours.db.url, [long!.sessionId], 100_000);
      const ca = ours.stack.ca.toString();
      const t: Targets = {
        ours,
        bare,
        load: {
          ours: new LoadProcess(
            { target: 'ours', url: ours.stack.url, ca, sessions },
            path.join(context.scratch, 'load-ours.json'),
          ),
          bare: new LoadProcess(
            { target: 'bare', url: bare.url, ca: bare.ca, sessions },
            path.join(context.scratch, 'load-bare.json'),
          ),
        },
        redisPid: await redisPid(),
        postgresPids: await ours.postgresPids(),
      };
      loads.push(t.load.ours, t.load.bare);

      context.log('P3, P5: join storms');
      const storms = await stormGoals(t, sessions, context);
      context.log('P1, P2: chat rounds');
      const chat = await chatRounds(t, context);
      context.log('P4: one join and one message, 10 vs 100,000 messages of history');
      // Alone: the idle sockets' pings and clock syncs would blur a cost measured one message at a time.
      await Promise.all([t.load.ours.disconnect(), t.load.bare.disconnect()]);
      const p4 = await historyGoal(t, short!, long!);
      context.log('profiles of one more storm and round of ours');
      await profileOurs(t, profiler, storms, chat);
      context.log('heap snapshots of both, without and with the sockets');
      await profileHeaps(t, profiler, storms);
      return [...chat, ...storms, p4];
    } finally {
      await Promise.all(loads.map((load) => load.close()));
      await bare?.stop();
      await ours.stop();
    }
  },
};

// ---- P4 ----------------------------------------------------------------------------------------

async function historyGoal(t: Targets, short: BenchSession, long: BenchSession): Promise<GoalResult> {
  const url = t.ours.stack.url;
  const ca = t.ours.stack.ca.toString();
  type Which = 'short' | 'long';
  const sessionOf = (which: Which) => (which === 'short' ? short : long);
  const joins: Record<Which, { ms: number; bytes: number }[]> = { short: [], long: [] };
  const sent: Record<Which, { ms: number; cpuMs: number }[]> = { short: [], long: [] };
  // Joins first: the short history must still be 10 messages long.
  for (const which of interleaved<Which>('short', 'long', PAIRS)) {
    await settle(t);
    joins[which].push(await joinCost(url, ca, sessionOf(which)));
  }
  for (const which of interleaved<Which>('short', 'long', PAIRS)) {
    await settle(t);
    t.postgresPids = await t.ours.postgresPids();
    sent[which].push(await messageCost(url, ca, sessionOf(which), () => serverPids(t, 'ours')));
  }
  const figure = (label: string, of: (which: Which) => number) => ({
    label,
    short: of('short'),
    long: of('long'),
  });
  const rows = [
    figure('join, ms', (w) => median(joins[w].map((j) => j.ms))),
    figure('join, bytes', (w) => median(joins[w].map((j) => j.bytes))),
    figure('message acknowledged, ms', (w) => median(sent[w].map((m) => m.ms))),
    figure('message, server CPU ms', (w) => median(sent[w].map((m) => m.cpuMs))),
  ];
  const [join, bytes, message, cpu] = rows.map((row) => row.long / row.short) as [
    number,
    number,
    number,
    number,
  ];
  return {
    id: 'P4',
    what: 'one message and one join as history grows (10 vs 100,000 messages)',
    goal: 'message <= 1.1x; join bytes and time <= 2x',
    measured: `message CPU ${fixed(cpu, 2)}x (ack ${fixed(message, 2)}x); join ${fixed(join, 2)}x time, ${fixed(bytes, 2)}x bytes`,
    pass: cpu <= 1.1 && join <= 2 && bytes <= 2,
    reproduce: 'BENCH_ONLY=P4 npm run bench',
    details: [
      `One client at a time through the gateway, ${PAIRS} interleaved rounds per session, medians. A join: connect,`,
      '`initMessage`, the list (bytes: the JSON of the acknowledgement and the `message` event). A message: one',
      'chat message acknowledged, sent one after the other; CPU of every process of ours and Postgres.',
      '',
      '| figure | 10 messages | 100,000 messages | ratio |',
      '|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.label} | ${fixed(row.short, 2)} | ${fixed(row.long, 2)} | ${fixed(row.long / row.short, 2)}x |`,
      ),
    ].join('\n'),
  };
}

// ---- P3, P5 ------------------------------------------------------------------------------------

async function stormGoals(
  t: Targets,
  sessions: BenchSession[],
  context: BenchContext,
): Promise<GoalResult[]> {
  const sockets = sessions.length * SIZE;
  /** Resident memory of a target's socket servers after a full garbage collection (the preload's SIGURG). */
  const rss = async (target: Target) => {
    for (const pid of realtimePids(t, target)) process.kill(pid, 'SIGURG');
    await sleep(2000);
    return realtimePids(t, target).reduce((sum, pid) => sum + rssBytes(pid), 0);
  };
  const before = { ours: await rss('ours'), bare: await rss('bare') };
  const storms: Record<Target, ConnectReport[]> = { ours: [], bare: [] };
  const connected = new Set<Target>();
  for (const target of interleaved<Target>('ours', 'bare', PAIRS)) {
    if (connected.has(target)) await t.load[target].disconnect();
    await settle(t);
    const report = await t.load[target].connect(STORM_MS);
    connected.add(target);
    storms[target].push(report);
    context.log(
      `${target}: ${report.joined}/${sockets} joined in ${fixed(report.wallMs / 1000)} s, p99 ${fixed(quantile(report.joinMs, 0.99))} ms${report.firstError ? ` (${report.firstError})` : ''}`,
    );
  }
  await settle(t);
  const after = { ours: await rss('ours'), bare: await rss('bare') };
  const p99 = (target: Target) => median(storms[target].map((storm) => quantile(storm.joinMs, 0.99)));
  const allJoined = storms.ours.every((storm) => storm.joined === sockets);
  const growth = (target: Target) => ((after[target] - before[target]) / sockets) * 1000;
  const mb = (bytes: number) => `${fixed(bytes / 2 ** 20)} MB`;
  return [
    {
      id: 'P3',
      what: `join storm: ${sockets} sockets join ${sessions.length} sessions within ${STORM_MS / 1000} s (${HISTORY} messages each)`,
      goal: "all joined; p99 join <= 1 s and <= 3x bare's",
      measured: `${allJoined ? 'all joined' : 'NOT all joined'}; p99 ${fixed(p99('ours'), 0)} ms vs bare ${fixed(p99('bare'), 0)} ms (${ratio(p99('ours'), p99('bare'))})`,
      pass: allJoined && p99('ours') <= 1000 && p99('ours') <= 3 * p99('bare'),
      reproduce: 'BENCH_ONLY=P3 npm run bench',
      details: stormTable(storms),
    },
    {
      id: 'P5',
      what: 'idle live sockets: server memory growth per 1,000',
      goal: "<= 1.5x bare's growth",
      measured: `${mb(growth('ours'))} vs bare ${mb(growth('bare'))} (${ratio(growth('ours'), growth('bare'))})`,
      pass: growth('ours') <= 1.5 * growth('bare'),
      reproduce: 'BENCH_ONLY=P5 npm run bench',
      details: [
        `Resident memory of the two realtime replicas (bare: the two bare servers), after a full garbage collection, with no socket, and with the`,
        `${sockets} sockets of the storms connected and joined, idle (after the last storm, settled), per 1,000 sockets.`,
        `The storms before connected and closed ${PAIRS - 1} more sets: what they left behind counts, for both.`,
        '',
        '| | before | after | growth per 1,000 sockets |',
        '|---|---|---|---|',
        `| ours | ${mb(before.ours)} | ${mb(after.ours)} | ${mb(growth('ours'))} |`,
        `| bare | ${mb(before.bare)} | ${mb(after.bare)} | ${mb(growth('bare'))} |`,
      ].join('\n'),
    },
  ];
}

function stormTable(storms: Record<Target, ConnectReport[]>): string {
  const lines = [
    'Every socket starts evenly spread over the storm; a join is connect (TLS, WebSocket, our access token) to',
    'the list received (ours: `initMessage` answered with the newest page; bare: its `join` answered).',
    '',
    '| round | target | joined | failed | p50 ms | p99 ms | max ms | storm s |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const target of ['ours', 'bare'] as const) {
    storms[target].forEach((storm, i) =>
      lines.push(
        `| ${i + 1} | ${target} | ${storm.joined} | ${storm.failed} | ${fixed(quantile(storm.joinMs, 0.5), 0)} | ${fixed(quantile(storm.joinMs, 0.99), 0)} | ${fixed(storm.joinMs.at(-1) ?? NaN, 0)} | ${fixed(storm.wallMs / 1000)} |`,
      ),
    );
  }
  return lines.join('\n');
}

// ---- P1, P2 ------------------------------------------------------------------------------------

interface ChatRound extends RoundReport {
  target: Target;
  serverCpu: number;
  redisCpu: number;
}

async function chatRounds(t: Targets, context: BenchContext): Promise<GoalResult[]> {
  const rounds: ChatRound[] = [];
  for (const target of interleaved<Target>('ours', 'bare', PAIRS)) {
    await settle(t);
    t.postgresPids = await t.ours.postgresPids();
    const cpu = cpuMeter(() => serverPids(t, target));
    const redis0 = cpuSeconds(t.redisPid);
    const report = await t.load[target].round(SESSIONS, SECONDS);
    rounds.push({ ...report, target, serverCpu: cpu.stop(), redisCpu: cpuSeconds(t.redisPid) - redis0 });
    context.log(
      `${target}: p99 ${fixed(quantile(report.latencies, 0.99))} ms, ${report.delivered}/${report.expected} delivered`,
    );
  }
  const of = (target: Target) => rounds.filter((round) => round.target === target);
  const p99 = (target: Target) => median(of(target).map((round) => quantile(round.latencies, 0.99)));
  const lost = (target: Target) =>
    of(target).reduce((sum, round) => sum + round.expected - round.delivered, 0);
  const cpuMs = (target: Target) => median(of(target).map((round) => (round.serverCpu * 1000) / round.sent));
  const sockets = SESSIONS * SIZE;
  return [
    {
      id: 'P1',
      what: `chat fan-out: ${SESSIONS} sessions x ${SIZE} (${sockets} sockets), 1 msg/s per session, 2 replicas on Redis through the gateway`,
      goal: "p99 <= 3x bare's and <= 50 ms; 0 lost",
      measured: `p99 ${fixed(p99('ours'))} ms vs bare ${fixed(p99('bare'))} ms (${ratio(p99('ours'), p99('bare'))}); ${lost('ours')} lost (bare ${lost('bare')})`,
      pass: p99('ours') <= 3 * p99('bare') && p99('ours') <= 50 && lost('ours') === 0,
      reproduce: 'BENCH_ONLY=P1 npm run bench',
      details: roundTable(rounds),
    },
    {
      id: 'P2',
      what: 'server CPU per chat message, every process together',
      goal: "<= 2.5x bare's",
      measured: `${fixed(cpuMs('ours'), 2)} ms vs bare ${fixed(cpuMs('bare'), 2)} ms (${ratio(cpuMs('ours'), cpuMs('bare'))})`,
      pass: cpuMs('ours') <= 2.5 * cpuMs('bare'),
      reproduce: 'BENCH_ONLY=P2 npm run bench',
      details: [
        'CPU (user + system, from /proc) during each round of P1, divided by the messages sent. Ours: the services,',
        "realtime's two replicas, the gateway's nginx and workers, the Postgres backends of the stack's database and",
        "Redis. Bare: the two servers, the same gateway config's nginx and workers, and Redis. Idle work (pings, ours'",
        'clock syncs and access checks for the connected sockets) is counted: it is part of serving them.',
        '',
        '| round | target | CPU s | of which Redis | messages | ms per message |',
        '|---|---|---|---|---|---|',
        ...rounds.map(
          (round, i) =>
            `| ${i + 1} | ${round.target} | ${fixed(round.serverCpu, 2)} | ${fixed(round.redisCpu, 2)} | ${round.sent} | ${fixed((round.serverCpu * 1000) / round.sent, 2)} |`,
        ),
      ].join('\n'),
    },
  ];
}

function roundTable(rounds: ChatRound[]): string {
  return [
    `${PAIRS} interleaved pairs of ${SECONDS} s rounds; a delivery's delay is its send to its arrival at one member of`,
    "the room (the sender included), on the load generator's clock; each target has its own load generator process.",
    '',
    '| round | target | sent | acknowledged | delivered / owed | p50 ms | p99 ms | max ms | load generator CPU s |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rounds.map(
      (round, i) =>
        `| ${i + 1} | ${round.target} | ${round.sent} | ${round.acknowledged} | ${round.delivered} / ${round.expected} | ${fixed(quantile(round.latencies, 0.5))} | ${fixed(quantile(round.latencies, 0.99))} | ${fixed(round.latencies.at(-1) ?? NaN)} | ${fixed(round.clientCpu, 2)} |`,
    ),
  ].join('\n');
}

// ---- Profiles ----------------------------------------------------------------------------------

const PROFILED = ['realtime-1', 'realtime-2', 'studies', 'records'];

/** One more storm and one more round of ours under the profiler; the buckets go in the goals' details. */
async function profileOurs(
  t: Targets,
  profiler: StackProfiler,
  storms: GoalResult[],
  chat: GoalResult[],
): Promise<void> {
  const services = t.ours.stack.processes.filter((child) => PROFILED.includes(child.label));
  await t.load.ours.disconnect();
  await settle(t);
  const storm = await profiler.around(services, () => t.load.ours.connect(STORM_MS));
  await settle(t);
  const round = await profiler.around(services, () => t.load.ours.round(SESSIONS, SECONDS));
  const note = (what: string, table: string) =>
    `\n\nCPU profile of ${what} of ours (not in the figures above):\n\n${table}`;
  for (const goal of storms.filter((g) => g.id === 'P3'))
    goal.details += note(
      `one more storm (p99 ${fixed(quantile(storm.result.joinMs, 0.99), 0)} ms)`,
      storm.table,
    );
  for (const goal of chat)
    goal.details += note(
      `one more round (p99 ${fixed(quantile(round.result.latencies, 0.99))} ms)`,
      round.table,
    );
}

/**
 * P5's profile: heap snapshots of both targets' socket servers with no socket and with every
 * socket joined and idle, compared by constructor: where ours keeps more per socket than bare does,
 * and how much of it lives outside the JavaScript heap.
 */
async function profileHeaps(t: Targets, profiler: StackProfiler, storms: GoalResult[]): Promise<void> {
  const heaps = async () => ({
    ours: await profiler.heaps(realtimePids(t, 'ours')),
    bare: await profiler.heaps(realtimePids(t, 'bare')),
  });
  await t.load.ours.disconnect();
  await settle(t);
  const empty = await heaps();
  const joined = { ours: 0, bare: 0 };
  for (const target of ['ours', 'bare'] as const)
    joined[target] = (await t.load[target].connect(STORM_MS)).joined;
  await settle(t);
  const full = await heaps();
  /** KB per 1,000 of the target's sockets. */
  const kb = (target: Target, bytes: number) => fixed(((bytes / joined[target]) * 1000) / 1024, 0);
  const grew = (target: Target, key: keyof MemoryFigures) =>
    kb(target, full[target].usage[key] - empty[target].usage[key]);
  const growth = {
    ours: bucketGrowth(empty.ours.buckets, full.ours.buckets),
    bare: bucketGrowth(empty.bare.buckets, full.bare.buckets),
  };
  const top = [...growth.ours.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const perSocket = (target: Target) =>
    (full[target].usage.heapUsed - empty[target].usage.heapUsed) / joined[target];
  const table = [
    `Heap snapshots of the socket servers (the preload's SIGCONT; a snapshot collects garbage first) with no socket and`,
    `the storm's sockets joined and idle (ours ${joined.ours}, bare ${joined.bare}), per 1,000 sockets, KB (not in the figures above):`,
    '',
    '| | JS heap used | JS heap reserved | outside the heap (external) | resident (after the snapshot) |',
    '|---|---|---|---|---|',
    ...(['ours', 'bare'] as const).map(
      (target) =>
        `| ${target} | ${grew(target, 'heapUsed')} | ${grew(target, 'heapTotal')} | ${grew(target, 'external')} | ${grew(target, 'rss')} |`,
    ),
    '',
    `Per socket our JS heap grows ${ratio(perSocket('ours'), perSocket('bare'))} bare's. What else our resident memory gains is`,
    "outside V8's heap and outside its buffers (external does not grow): native memory the allocator keeps after",
    "the joins' work (our join checks a token, answers five clock samples and a page of 100 messages; bare's answers",
    'one ack), not objects each socket keeps. Per socket, ours keeps more closures and contexts (the handlers of',
    "proto's event table and the socket's serialised queue) and timers (the access renewal).",
    '',
    'What grew most in our heap, by constructor (self size; strings, closures, arrays and V8 internals as one bucket each):',
    '',
    '| bucket | ours KB per 1,000 | bare KB per 1,000 |',
    '|---|---|---|',
    ...top.map(
      ([name, bytes]) =>
        `| ${name.replace(/\|/g, '\\|')} | ${kb('ours', bytes)} | ${kb('bare', growth.bare.get(name) ?? 0)} |`,
    ),
  ].join('\n');
  for (const goal of storms.filter((g) => g.id === 'P5')) goal.details += `\n\n${table}`;
}
