import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REDIS_ADAPTERS, type RedisAdapterKind } from '@uis/realtime';
import { RedisServer, runRedisOutage, type OutageOptions, type OutageResult } from '@uis/realtime/testing';
import { repoRoot } from '../../launcher/src/data-dir';
import { startBenchStack } from '../support/bench-stack';

/**
 * The measurement behind realtime's adapter choice (README): both socket.io Redis adapters, two
 * replicas, clients split between them and chatting, Redis stopped mid-traffic (killed and
 * restarted empty, or frozen), several rounds each. Counts the deliveries that never came live.
 */

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 3000);
const OUTAGES: Array<OutageOptions['outage']> = ['kill', 'freeze'];
const REPORT = path.join(repoRoot(), 'docs/bench/realtime-adapters.md');

interface Row {
  adapter: RedisAdapterKind;
  outage: OutageOptions['outage'];
  rounds: OutageResult[];
}

const sum = (rounds: OutageResult[], pick: (r: OutageResult) => number) =>
  rounds.reduce((n, r) => n + pick(r), 0);

function report(rows: Row[]): string {
  const line = ({ adapter, outage, rounds }: Row) =>
    `| ${adapter} | ${outage} | ${rounds.length} | ${sum(rounds, (r) => r.stored.length)} | ${sum(rounds, (r) => r.lostCrossReplica)} of ${sum(
      rounds,
      (r) => r.expectedCrossReplica,
    )} | ${sum(rounds, (r) => r.lostDeliveries)} of ${sum(rounds, (r) => r.expectedDeliveries)} | ${sum(
      rounds,
      (r) => r.convergedClients,
    )} of ${rounds.length * 10} | ${sum(rounds, (r) => r.acknowledgedNotStored.length)} |`;
  return `# Realtime: socket.io Redis adapters under a Redis outage

Reproduce: \`npm run build && npm run bench:adapters -w scripts\` (about three minutes;
\`ROUNDS\` and \`OUTAGE_MS\` change the defaults of ${ROUNDS} rounds and ${OUTAGE_MS} ms). Needs
what \`npm run bench\` needs (the tests' Postgres and Redis, nginx) and the \`redis-server\` binary:
the replicas measured share a Redis of the benchmark's own, which it stops.

How it is measured (scripts/bench/realtime/adapter-chaos.ts, on realtime's test scenario
\`runRedisOutage\` from \`@uis/realtime/testing\`): the bench stack (scripts/bench/support/bench-stack.ts)
serves studies and records as built processes; the replicas measured run in the benchmark's process.
Each round: two realtime replicas on one Redis, 10 clients split between them, each sending a
chat message about every 400 ms; after 1 s Redis is stopped for ${OUTAGE_MS} ms (*kill*: SIGKILL,
then a new, empty redis-server on the same port; *freeze*: SIGSTOP, then SIGCONT), the traffic
goes on for 2 s after it is back. A delivery is one stored message reaching one client as
\`messageAdded\`; a lost one never came live (the client would only see it after a resync).

| adapter | outage | rounds | messages stored | cross-replica deliveries lost | all deliveries lost | clients whose list converged without a resync | acknowledged but not stored |
|---|---|---|---|---|---|---|---|
${rows.map(line).join('\n')}

Realtime's Redis connections are the kit's (\`maxRetriesPerRequest: null\`): a command waits for Redis
to come back instead of failing, so a publish made during the outage is sent afterwards. Why the
pub/sub adapter still loses messages when Redis restarts: each connection reconnects on its own
back-off, and when a replica's publishing connection is back and sends its queue before the other
replica's subscriber has subscribed again, Redis delivers those messages to nobody (pub/sub keeps
nothing). The streams adapter appends to a stream and every replica reads on from the last entry it
saw, so a reader that comes back late still gets everything. A frozen Redis keeps the connections
open, so neither adapter loses anything then; both deliver late.

Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
`;
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-bench-realtime-adapters-'));
  const stack = await startBenchStack('realtime_adapters', scratch);
  const redis = await RedisServer.start();
  const rows: Row[] = [];
  try {
    for (const adapter of REDIS_ADAPTERS) {
      for (const outage of OUTAGES) {
        const row: Row = { adapter, outage, rounds: [] };
        for (let round = 0; round < ROUNDS; round += 1) {
          const result = await runRedisOutage(stack, redis, {
            adapter,
            outage,
            clients: 10,
            outageMs: OUTAGE_MS,
            sendEveryMs: 400,
            settleMs: 5000,
          });
          row.rounds.push(result);
          console.log(
            `${adapter} ${outage} round ${round + 1}: ${result.stored.length} stored, lost ${result.lostCrossReplica} of ${result.expectedCrossReplica} cross-replica deliveries`,
          );
        }
        rows.push(row);
      }
    }
    fs.mkdirSync(path.dirname(REPORT), { recursive: true });
    fs.writeFileSync(REPORT, report(rows));
    console.log(`written to ${path.relative(process.cwd(), REPORT)}`);
  } finally {
    await redis.stop();
    await stack.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
