import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { signAccessToken } from '@uis/kit';
import {
  PROFILE_PRELOAD,
  TEST_DATABASE_URL,
  addProfile,
  emptyTotals,
  createTestDatabase,
  freePort,
  testSecrets,
  testUser,
  waitFor,
  type BucketTotals,
  type TestDatabase,
} from '@uis/kit/testing';
import { EVERYONE } from '@uis/proto';
import { LiveConnection } from '@uis/live-client';
import { Client } from 'pg';
import { repoRoot } from '../../launcher/src/data-dir';
import { baselineBuild } from './baseline-build';

/**
 * Server CPU per chat message and acknowledgement latency, before and after realtime's group
 * commit, side by side: the same load on the working tree's build ("after") and on a
 * built copy of BASELINE ("before", default HEAD), in interleaved rounds (before, after, after,
 * before, ...), so drift of a shared machine weighs on both alike.
 *
 * Each variant is its own stack: studies, records and realtime as built processes (info-level
 * JSON logs to /dev/null, as in production), a throwaway database. The clients (proto's
 * LiveConnection, what the browser runs) live in this process: sessions of SOCKETS_PER_SESSION
 * sockets each (a researcher and participants, every socket its own user). A round: the sockets of
 * the first N sessions (one of ROWS) each send one message a second for SECONDS seconds, evenly
 * spread. The report goes to docs/bench/realtime-group-commit.md.
 */

/** Loads measured, as numbers of sessions chatting at once (100: the row). */
const ROWS = (process.env.ROWS ?? '20,40,100').split(',').map(Number);
const SESSIONS = Math.max(...ROWS);
const SOCKETS_PER_SESSION = Number(process.env.SOCKETS_PER_SESSION ?? 10);
/** The load of the profiled pair of rounds. */
const PROFILE_ROW = Number(process.env.PROFILE_ROW ?? 40);
const SECONDS = Number(process.env.SECONDS ?? 10);
const PAIRS = Number(process.env.PAIRS ?? 3);
const BASELINE = process.env.BASELINE ?? 'HEAD';
/** One more pair of rounds with the CPU profiler on in realtime and records (not in the table). */
const PROFILE = process.env.PROFILE !== '0';
const REPO = repoRoot();
const REPORT = process.env.REPORT ?? path.join(REPO, 'docs/bench/realtime-group-commit.md');
const PRELOAD = PROFILE_PRELOAD;
const CLK_TCK = 100;
const IDLE_SAMPLE_MS = 3000;

type VariantName = 'before' | 'after';
const SERVICES = ['realtime', 'records', 'studies'] as const;
type ServiceName = (typeof SERVICES)[number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** CPU seconds (user + system, every thread) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return null;
  }
}

async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

interface RunningService {
  child: ChildProcess;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `node <root>/services/<name>/dist/src/main.js`, once its /ready answers. Not the bench stack:
 * each variant runs its own build (the baseline copy's or the working tree's), one realtime alone on
 * the in-memory adapter, its stdout not read by this process, whose CPU counts as the clients'.
 */
async function startService(
  root: string,
  name: ServiceName,
  env: Record<string, string>,
  profilePrefix?: string,
): Promise<RunningService> {
  const port = await freePort();
  const main = path.join(root, `services/${name}/dist/src/main.js`);
  const child = spawn(process.execPath, profilePrefix ? ['-r', PRELOAD, main] : [main], {
    // Only what is given: a REDIS_URL of the shell must not switch realtime to Redis.
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(profilePrefix ? { CPU_PROFILE_PREFIX: profilePrefix } : {}),
    },
    // Logs go where production's go, somewhere that is not this process (stdout: /dev/null).
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (!alive()) throw new Error(`${name} exited:\n${errors}`);
      return (await fetch(`${url}/ready`).catch(() => null))?.ok;
    },
    `${name} of ${root}`,
    30_000,
  );
  const stop = async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    await exited;
  };
  return { child, url, pid: child.pid!, stop };
}

interface RoundResult {
  variant: VariantName;
  sessions: number;
  sent: number;
  acknowledged: number;
  failed: number;
  latencies: number[];
  wallSeconds: number;
  cpu: Record<ServiceName | 'postgres' | 'clients', number>;
  /** Internal append calls records served. */
  appendCalls: number;
  /** CPU seconds per second each server used idle just before (already subtracted from `cpu`). */
  idle: Record<ServiceName, number>;
}

/** One side of the comparison: its processes, database and connected clients. */
class Variant {
  readonly rounds: RoundResult[] = [];
  readonly profiles: Record<'realtime' | 'records', string[]> = { realtime: [], records: [] };
  private clients: { live: LiveConnection; sessionId: string }[] = [];
  private counter = 0;

  private constructor(
    readonly name: VariantName,
    readonly root: string,
    private readonly db: TestDatabase,
    private readonly services: Record<ServiceName, RunningService>,
    private readonly jwtSecret: string,
    private readonly profilePrefix: Record<'realtime' | 'records', string> | undefined,
  ) {}

  static async start(name: VariantName, root: string, profileDir?: string): Promise<Variant> {
    const db = await createTestDatabase(`bench_group_commit_${name}`);
    const secrets = testSecrets();
    const env: Record<string, string> = {
      ...secrets,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    const prefix = profileDir
      ? {
          realtime: path.join(profileDir, `${name}-realtime`),
          records: path.join(profileDir, `${name}-records`),
        }
      : undefined;
    // One after the other: each runs its migrations on the database as it starts.
    const studies = await startService(root, 'studies', env);
    env.STUDIES_URL = studies.url;
    const records = await startService(root, 'records', env, prefix?.records);
    env.RECORDS_URL = records.url;
    // Every socket's user sends one message a second, far below any write limit; the limit stays
    // out of the way of the warm-up and the rounds that follow each other closely.
    const realtime = await startService(
      root,
      'realtime',
      { ...env, LIVE_WRITE_LIMIT: '10000' },
      prefix?.realtime,
    );
    return new Variant(name, root, db, { studies, records, realtime }, secrets.JWT_SECRET, prefix);
  }

  /** SESSIONS sessions of their own researcher, scope Everyone; every socket connected and joined. */
  async connect(): Promise<void> {
    const studies = this.services.studies.url;
    const call = async (token: string, route: string, body: object) => {
      const res = await fetch(`${studies}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { res: Record<string, Record<string, string>> };
      if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(answer)}`);
      return answer.res;
    };
    const token = (type: 'researcher' | 'participant', name: string) =>
      signAccessToken(this.jwtSecret, testUser(type, { name }), 6 * 3600);
    const sessions = await mapLimit(
      Array.from({ length: SESSIONS }, (_, n) => n),
      8,
      async (n) => {
        const owner = token('researcher', `Researcher ${n}`);
        const groupId = (await call(owner, '/createGroup', {})).group!.group_id!;
        const sessionId = (await call(owner, '/createSession', { groupId })).session!.session_id!;
        await call(owner, '/editSessionInfo', { sessionId, scope: EVERYONE, state: 'live' });
        return {
          sessionId,
          tokens: [
            owner,
            ...Array.from({ length: SOCKETS_PER_SESSION - 1 }, (_, p) =>
              token('participant', `Participant ${n}.${p}`),
            ),
          ],
        };
      },
    );
    const sockets = sessions.flatMap(({ sessionId, tokens }) =>
      tokens.map((accessToken) => ({ sessionId, accessToken })),
    );
    this.clients = await mapLimit(sockets, 25, async ({ sessionId, accessToken }) => {
      const live = await new LiveConnection({
        url: this.services.realtime.url,
        accessToken: () => accessToken,
        socket: { forceNew: true },
      }).connected(30_000);
      const joined = await live.join(sessionId);
      if (joined.status !== 'SUCCESS') throw new Error(`join refused: ${joined.res.message}`);
      return { live, sessionId };
    });
  }

  /** Postgres backends of this variant's database and their CPU seconds so far. */
  private async postgresCpu(admin: Client): Promise<Map<number, number>> {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1',
      [new URL(this.db.url).pathname.slice(1)],
    );
    return new Map(
      rows.flatMap(({ pid }) => {
        const cpu = cpuSeconds(pid);
        return cpu === null ? [] : [[pid, cpu] as const];
      }),
    );
  }

  private async appendCalls(): Promise<number> {
    const text = await (await fetch(`${this.services.records.url}/metrics`)).text();
    let calls = 0;
    for (const line of text.split('\n')) {
      // POST /internal/records/messages/batch (a group; also .../latest, the join reads).
      if (
        line.startsWith('http_request_duration_seconds_count{') &&
        line.includes('method="POST"') &&
        line.includes('route="/internal/records/messages')
      )
        calls += Number(line.split(' ').at(-1));
    }
    return calls;
  }

  private signalProfilers(): void {
    if (!this.profilePrefix) return;
    for (const name of ['realtime', 'records'] as const) this.services[name].child.kill('SIGWINCH');
  }

  /**
   * `seconds` of every socket of the first `sessions` sessions sending one message a second, evenly
   * spread; measured. Starts once the variant is idle again (an overloaded round leaves a backlog).
   */
  async round(
    admin: Client,
    sessions: number,
    seconds: number,
    { profile = false, everyone = [this] }: { profile?: boolean; everyone?: readonly Variant[] } = {},
  ): Promise<RoundResult> {
    const cpuOf = () =>
      Object.fromEntries(
        SERVICES.map((name) => [name, cpuSeconds(this.services[name].pid) ?? NaN]),
      ) as Record<ServiceName, number>;
    const clients = this.clients.slice(0, sessions * SOCKETS_PER_SESSION);
    const idle = await this.settle(everyone, cpuOf);
    const latencies: number[] = [];
    let acknowledged = 0;
    let failed = 0;
    const sends: Promise<void>[] = [];
    const spacing = 1000 / clients.length;

    if (profile) this.signalProfilers();
    const calls0 = await this.appendCalls();
    const pg0 = await this.postgresCpu(admin);
    const cpu0 = cpuOf();
    const self0 = process.cpuUsage();
    const started = performance.now();
    for (let k = 0; k < seconds; k += 1) {
      clients.forEach(({ live }, i) => {
        const at = started + k * 1000 + i * spacing;
        setTimeout(() => {
          const sentAt = performance.now();
          this.counter += 1;
          sends.push(
            live
              .send(`Message ${this.counter} of the group-commit benchmark, about as long as a real one.`)
              .then((outcome) => {
                latencies.push(performance.now() - sentAt);
                if (outcome.kind === 'acknowledged') acknowledged += 1;
                else failed += 1;
              }),
          );
        }, at - performance.now());
      });
    }
    await sleep(seconds * 1000 + 50);
    await waitFor(() => sends.length === seconds * clients.length, 'every message sent', 60_000);
    await Promise.all(sends);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu1 = cpuOf();
    const self1 = process.cpuUsage(self0);
    const pg1 = await this.postgresCpu(admin);
    const calls1 = await this.appendCalls();
    if (profile) this.signalProfilers();

    let postgres = 0;
    for (const [pid, cpu] of pg1) postgres += cpu - (pg0.get(pid) ?? 0);
    const result: RoundResult = {
      variant: this.name,
      sessions,
      sent: sends.length,
      acknowledged,
      failed,
      latencies: latencies.sort((a, b) => a - b),
      wallSeconds,
      cpu: {
        realtime: cpu1.realtime - cpu0.realtime - idle.realtime * wallSeconds,
        records: cpu1.records - cpu0.records - idle.records * wallSeconds,
        studies: cpu1.studies - cpu0.studies - idle.studies * wallSeconds,
        postgres,
        clients: (self1.user + self1.system) / 1e6,
      },
      appendCalls: calls1 - calls0,
      idle,
    };
    return result;
  }

  /** CPU seconds its three servers have used so far. */
  serverCpu(): number {
    return SERVICES.reduce((sum, name) => sum + (cpuSeconds(this.services[name].pid) ?? 0), 0);
  }

  /**
   * Until every stack's servers (the other variant's too: an overloaded round leaves a backlog)
   * use under 5% of a core for a second, at most a minute; then what each of this stack's servers
   * uses per second while idle (open sockets cost pings, clock syncs and access checks), which is
   * subtracted from the round.
   */
  private async settle(
    everyone: readonly Variant[],
    cpuOf: () => Record<ServiceName, number>,
  ): Promise<Record<ServiceName, number>> {
    const busy = () => everyone.reduce((sum, variant) => sum + variant.serverCpu(), 0);
    for (let waited = 0; waited < 60; waited += 1) {
      const before = busy();
      await sleep(1000);
      if (busy() - before < 0.05) break;
    }
    const start = cpuOf();
    await sleep(IDLE_SAMPLE_MS);
    const end = cpuOf();
    return Object.fromEntries(
      SERVICES.map((name) => [name, ((end[name] - start[name]) * 1000) / IDLE_SAMPLE_MS]),
    ) as Record<ServiceName, number>;
  }

  /** Waits for the profiles of the profiled round and files them. */
  async collectProfiles(): Promise<void> {
    if (!this.profilePrefix) return;
    for (const name of ['realtime', 'records'] as const) {
      const file = `${this.profilePrefix[name]}-1.cpuprofile`;
      await waitFor(() => fs.existsSync(`${file}.done`), `the ${name} profile`, 60_000);
      this.profiles[name].push(file);
    }
  }

  async close(): Promise<void> {
    for (const { live } of this.clients) live.close();
    await Promise.all(SERVICES.map((name) => this.services[name].stop()));
    await this.db.drop();
  }
}

const perMessageMs = (seconds: number, messages: number) => (seconds * 1000) / messages;

interface Summary {
  rounds: number;
  sent: number;
  messages: number;
  failed: number;
  /** Milliseconds of CPU per acknowledged message, per process, medians of the rounds. */
  cpuMs: Record<ServiceName | 'postgres' | 'clients', number>;
  serverMs: number;
  appServerMs: number;
  p50: number;
  p99: number;
  max: number;
  perCall: number;
}

function summarise(rounds: RoundResult[]): Summary {
  const per = (pick: (r: RoundResult) => number) =>
    median(rounds.map((r) => perMessageMs(pick(r), r.acknowledged)));
  return {
    rounds: rounds.length,
    sent: rounds.reduce((n, r) => n + r.sent, 0),
    messages: rounds.reduce((n, r) => n + r.acknowledged, 0),
    failed: rounds.reduce((n, r) => n + r.failed, 0),
    cpuMs: {
      realtime: per((r) => r.cpu.realtime),
      records: per((r) => r.cpu.records),
      studies: per((r) => r.cpu.studies),
      postgres: per((r) => r.cpu.postgres),
      clients: per((r) => r.cpu.clients),
    },
    appServerMs: per((r) => r.cpu.realtime + r.cpu.records),
    serverMs: per((r) => r.cpu.realtime + r.cpu.records + r.cpu.studies + r.cpu.postgres),
    p50: median(rounds.map((r) => quantile(r.latencies, 0.5))),
    p99: median(rounds.map((r) => quantile(r.latencies, 0.99))),
    max: Math.max(...rounds.map((r) => r.latencies.at(-1) ?? NaN)),
    perCall: median(rounds.map((r) => r.acknowledged / Math.max(1, r.appendCalls))),
  };
}

/** One line of the summary: what the issue asks about, at one load. */
function headline(sessions: number, before: Summary, after: Summary): string {
  const kept = (s: Summary) => `${((100 * s.messages) / s.sent).toFixed(s.messages === s.sent ? 0 : 1)}%`;
  return `| ${sessions * SOCKETS_PER_SESSION}/s | ${before.appServerMs.toFixed(2)} → ${after.appServerMs.toFixed(2)} ms (**${(after.appServerMs / before.appServerMs).toFixed(2)}**) | ${before.serverMs.toFixed(2)} → ${after.serverMs.toFixed(2)} ms (**${(after.serverMs / before.serverMs).toFixed(2)}**) | ${before.p99.toFixed(0)} → ${after.p99.toFixed(0)} ms (**${(after.p99 / before.p99).toFixed(2)}**) | ${kept(before)} → ${kept(after)} | ${after.perCall.toFixed(1)} |`;
}

function rowTable(sessions: number, before: Summary, after: Summary): string {
  const ratio = (pick: (s: Summary) => number) => (pick(after) / pick(before)).toFixed(2);
  const line = (label: string, pick: (s: Summary) => number, digits = 2, unit = ' ms') =>
    `| ${label} | ${pick(before).toFixed(digits)}${unit} | ${pick(after).toFixed(digits)}${unit} | **${ratio(pick)}** |`;
  return `### ${sessions} sessions × ${SOCKETS_PER_SESSION} sockets, 1 msg/s each (${sessions * SOCKETS_PER_SESSION} messages/s), ${SECONDS} s

| | before | after | after / before |
|---|---|---|---|
${line('server CPU per message: realtime + records', (s) => s.appServerMs)}
${line('— realtime', (s) => s.cpuMs.realtime)}
${line('— records', (s) => s.cpuMs.records)}
${line('— studies (access checks)', (s) => s.cpuMs.studies)}
${line('— Postgres backends', (s) => s.cpuMs.postgres)}
${line('server CPU per message, all four', (s) => s.serverMs)}
${line('acknowledgement latency p50', (s) => s.p50, 1)}
${line('acknowledgement latency p99', (s) => s.p99, 1)}
${line('messages per internal append call', (s) => s.perCall, 1, '')}

Acknowledged ${before.messages} of ${before.sent} before, ${after.messages} of ${after.sent} after (the rest timed out: ${before.failed} and ${after.failed}); worst acknowledgement ${before.max.toFixed(0)} ms before, ${after.max.toFixed(0)} ms after. The clients (this process) used ${before.cpuMs.clients.toFixed(2)} and ${after.cpuMs.clients.toFixed(2)} ms per message.`;
}

function profileTable(
  before: BucketTotals,
  after: BucketTotals,
  messages: Record<VariantName, number>,
): string {
  const names = [...new Set([...before.ms.keys(), ...after.ms.keys()])].sort(
    (a, b) => (before.ms.get(b) ?? 0) - (before.ms.get(a) ?? 0),
  );
  const us = (totals: BucketTotals, name: string, n: number) => ((totals.ms.get(name) ?? 0) * 1000) / n;
  const pct = (totals: BucketTotals, name: string) => (100 * (totals.ms.get(name) ?? 0)) / totals.busyMs;
  const rows = names
    .filter((name) => pct(before, name) >= 1 || pct(after, name) >= 1)
    .map(
      (name) =>
        `| ${name} | ${us(before, name, messages.before).toFixed(0)} µs (${pct(before, name).toFixed(0)}%) | ${us(after, name, messages.after).toFixed(0)} µs (${pct(after, name).toFixed(0)}%) |`,
    );
  const total = (totals: BucketTotals, n: number) => ((totals.busyMs * 1000) / n).toFixed(0);
  return `| self time in | before, per message (share) | after, per message (share) |
|---|---|---|
${rows.join('\n')}
| **all (not idle)** | **${total(before, messages.before)} µs** | **${total(after, messages.after)} µs** |`;
}

function report(
  headlines: string[],
  tables: string[],
  rounds: RoundResult[],
  profiles: string,
  baseline: { commit: string; ref: string },
): string {
  const roundRow = (r: RoundResult, n: number) =>
    `| ${n + 1} | ${r.sessions * SOCKETS_PER_SESSION}/s | ${r.variant} | ${r.acknowledged} / ${r.sent} | ${perMessageMs(r.cpu.realtime, r.acknowledged).toFixed(2)} | ${perMessageMs(r.cpu.records, r.acknowledged).toFixed(2)} | ${perMessageMs(r.cpu.studies + r.cpu.postgres, r.acknowledged).toFixed(2)} | ${quantile(r.latencies, 0.5).toFixed(1)} | ${quantile(r.latencies, 0.99).toFixed(1)} | ${(r.acknowledged / Math.max(1, r.appendCalls)).toFixed(1)} | ${(100 * (r.idle.realtime + r.idle.records + r.idle.studies)).toFixed(0)}% |`;
  return `# Realtime: group commit of chat appends

Reproduce: \`npm run build && npm run bench:group-commit -w scripts\` (about ten minutes).
\`BASELINE\` is the commit compared against (default HEAD; built once into the OS temp directory
from \`git archive\`), \`ROWS\` the loads in sessions (default 20,40,100), \`PAIRS\` the pairs of rounds
per load, \`SECONDS\` a round's length, \`PROFILE_ROW\` the load profiled (\`PROFILE=0\`: none). Needs
the tests' Postgres; no Redis (the in-memory adapter, one replica).

**Before**: ${baseline.ref} (${baseline.commit.slice(0, 12)}): one internal HTTP call realtime → records per message,
records inserting through TypeORM's entity path, an info line per internal request.
**After**: the working tree: realtime's \`AppendBatcher\` sends what arrived while its previous
append was in flight as one \`recordsAppendMessages\` call (at most 200 messages), records stores it
with one multi-row INSERT (array parameters, plain SQL), and hot internal routes log at debug.

Each variant is a stack of its own (studies, records, realtime as built processes, info-level JSON
logs to /dev/null, a database of its own), with ${SESSIONS} sessions of ${SOCKETS_PER_SESSION} sockets connected and joined (every
socket its own user; the live client's LiveConnection, in the benchmark's process). A round: the sockets of
the first N sessions each send one chat message a second for ${SECONDS} s, spread evenly; every message is
broadcast to the ${SOCKETS_PER_SESSION} sockets of its session. Per load, ${PAIRS} pairs of rounds, interleaved
(before, after, after, before, ...), each starting once both stacks are idle again; each variant
warmed up first by a ${Math.min(5, SECONDS)} s round at the heaviest load.

## Summary (medians over the rounds; before → after, ratio after / before)

| load | server CPU per message, realtime + records | all servers (+ studies, Postgres) | acknowledgement p99 | acknowledged within the round | messages per append call, after |
|---|---|---|---|---|---|
${headlines.join('\n')}

Where a variant cannot keep up (fewer acknowledged, a p99 at the 10 s timeout), its CPU per
acknowledged message also pays for the messages that timed out and for the clients' resyncs after
them (client rule 3): compare CPU per message at the loads both keep up with, and read the heavier
ones for whether each keeps up at all.

## Results per load (medians over the rounds)

${tables.join('\n\n')}

### Every round

| round | load | variant | acknowledged | realtime CPU ms / msg | records CPU ms / msg | studies + Postgres CPU ms / msg | p50 ms | p99 ms | messages / append call | servers idle (of a core, subtracted) |
|---|---|---|---|---|---|---|---|---|---|---|
${rounds.map(roundRow).join('\n')}

## Where the time goes (CPU profiles, one more pair of rounds at ${PROFILE_ROW * SOCKETS_PER_SESSION} messages/s)

${profiles}

How it is measured (scripts/bench/realtime/group-commit.ts): CPU is user + system time of each
process (every thread, V8's collector too) from /proc, from a round's first send until its last
outcome, less what the process used idle (measured for ${IDLE_SAMPLE_MS / 1000} s just before the round: ${SESSIONS * SOCKETS_PER_SESSION} open sockets
cost pings, clock syncs and access checks), divided by the messages acknowledged; Postgres is the
backends connected to the variant's database. Latency is the client's: from \`LiveConnection.send\` to the acknowledgement (a message
unacknowledged after 10 s is resynced and counted as timed out). Profiles: V8's sampling profiler
(0.5 ms), started and stopped by signal around one round per variant (kit's testing/profile-on-signal.ts),
self time bucketed by the script it ran in (kit's testing/cpu-profile-buckets.ts), per acknowledged message.

Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
`;
}

async function main(): Promise<void> {
  const baseline = baselineBuild(BASELINE);
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'uis-group-commit-')) : undefined;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const variants: Variant[] = [];
  try {
    variants.push(await Variant.start('before', baseline.root, profileDir));
    variants.push(await Variant.start('after', REPO, profileDir));
    const [before, after] = variants as [Variant, Variant];
    for (const variant of variants) {
      await variant.connect();
      // At the heaviest load: every socket has sent, every code path is warm.
      await variant.round(admin, SESSIONS, Math.min(5, SECONDS), { everyone: variants });
      console.log(`${variant.name}: connected and warmed up`);
    }
    const rounds: RoundResult[] = [];
    const tables: string[] = [];
    const headlines: string[] = [];
    for (const sessions of ROWS) {
      for (let pair = 0; pair < PAIRS; pair += 1) {
        for (const variant of pair % 2 === 0 ? [before, after] : [after, before]) {
          const result = await variant.round(admin, sessions, SECONDS, { everyone: variants });
          rounds.push(result);
          console.log(
            JSON.stringify({ ...result, latencies: undefined, p99: quantile(result.latencies, 0.99) }),
          );
        }
      }
      const of = (name: VariantName) =>
        summarise(rounds.filter((r) => r.sessions === sessions && r.variant === name));
      tables.push(rowTable(sessions, of('before'), of('after')));
      headlines.push(headline(sessions, of('before'), of('after')));
    }

    let profiles = 'Not profiled (PROFILE=0).';
    if (PROFILE) {
      const messages = { before: 0, after: 0 };
      for (const variant of [before, after]) {
        messages[variant.name] = (
          await variant.round(admin, PROFILE_ROW, SECONDS, { profile: true, everyone: variants })
        ).acknowledged;
        await variant.collectProfiles();
      }
      profiles = (['realtime', 'records'] as const)
        .map((name) => {
          const totals = { before: emptyTotals(), after: emptyTotals() };
          for (const variant of [before, after])
            for (const file of variant.profiles[name]) addProfile(file, totals[variant.name]);
          return `### ${name}\n\n${profileTable(totals.before, totals.after, messages)}`;
        })
        .join('\n\n');
    }

    fs.mkdirSync(path.dirname(REPORT), { recursive: true });
    fs.writeFileSync(
      REPORT,
      report(headlines, tables, rounds, profiles, { commit: baseline.commit, ref: BASELINE }),
    );
    console.log(`written to ${path.relative(process.cwd(), REPORT)}`);
  } finally {
    await Promise.all(variants.map((variant) => variant.close()));
    await admin.end();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
