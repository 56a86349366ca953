import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TcpBalancer, waitFor } from '@uis/kit/testing';
import { LIVE_MESSAGE_PAGE, internalRoutes } from '@uis/proto';
import { LiveConnection } from '@uis/live-client';
import { RealtimeGateway } from '@uis/realtime';
import { repoRoot } from '../../launcher/src/data-dir';
import { startBenchStack, type BenchStack } from '../support/bench-stack';

/**
 * The cost of one chat message in a session with 10 and with 10,000 messages of history: server
 * time (from the message's frame arriving to its acknowledgement leaving, measured inside the
 * socket.io engine) and bytes on the wire (every byte between the clients and the server, counted
 * by a TCP proxy, until the sender has its acknowledgement and everyone has the message). The
 * architecture requires both to stay flat: at most 1.2 times as much at 10,000.
 */

const HISTORIES = [10, 10_000] as const;
const WARMUP = 30;
const SAMPLES = 300;
const MAX_RATIO = 1.2;
const REPORT = path.join(repoRoot(), 'docs/bench/realtime-message.md');

interface Sample {
  serverMs: number;
  roundTripMs: number;
  bytes: number;
}

interface CaseResult {
  history: number;
  serverMs: number;
  serverP95Ms: number;
  roundTripMs: number;
  bytes: number;
  joinBytes: number;
}

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Times each `message` event inside the engine: its frame in, its acknowledgement out. */
function watchServerTime(gateway: RealtimeGateway) {
  let arrived = 0;
  let last = Number.NaN;
  type EnginePacket = { type: string; data?: unknown };
  type RawSocket = { on(event: 'packet' | 'packetCreate', listener: (packet: EnginePacket) => void): void };
  gateway.server.engine.on('connection', (raw: RawSocket) => {
    raw.on('packet', (packet) => {
      if (packet.type === 'message' && /^2\d*\["message"/.test(String(packet.data)))
        arrived = performance.now();
    });
    raw.on('packetCreate', (packet) => {
      if (arrived && packet.type === 'message' && /^3\d*\[/.test(String(packet.data))) {
        last = performance.now() - arrived;
        arrived = 0;
      }
    });
  });
  return { take: () => last };
}

async function fillHistory(
  stack: BenchStack,
  sessionId: string,
  author: { id: string; email: string; name: string },
  count: number,
) {
  const records = stack.records();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = (next += 1);
      await records.call(internalRoutes.recordsAppendMessages, {
        items: [
          {
            sessionId,
            userId: author.id,
            email: author.email,
            name: author.name,
            message: `History message ${n} of ${count}, about as long as a real one.`,
          },
        ],
      });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

interface Case {
  history: number;
  sessionId: string;
  sender: LiveConnection;
  observer: LiveConnection;
  joinBytes: number;
  samples: Sample[];
}

/** A session with `history` messages, its researcher (the sender) and a participant joined through the proxy. */
async function prepare(stack: BenchStack, proxy: TcpBalancer, history: number): Promise<Case> {
  const researcher = stack.person('researcher', 'Rhea Researcher');
  const participant = stack.person('participant', 'Pat');
  const sessionId = await stack.session(researcher);
  await fillHistory(stack, sessionId, researcher.user, history);
  const client = (token: string) =>
    new LiveConnection({ url: proxy.url, accessToken: () => token, socket: { forceNew: true } }).connected();
  const sender = await client(researcher.token);
  const observer = await client(participant.token);
  await sender.join(sessionId);
  proxy.bytes.fromClients = proxy.bytes.toClients = 0;
  await observer.join(sessionId);
  const joinBytes = proxy.bytes.fromClients + proxy.bytes.toClients;
  return { history, sessionId, sender, observer, joinBytes, samples: [] };
}

/** One message into the case's session; the sample once the sender and the observer both have it. */
async function sendOne(
  proxy: TcpBalancer,
  serverTime: { take(): number },
  item: Case,
  n: number,
): Promise<Sample> {
  const { sender, observer, sessionId } = item;
  proxy.bytes.fromClients = proxy.bytes.toClients = 0;
  const started = performance.now();
  const answer = await sender.ask('message', { sessionId, message: `Benchmark message ${n}` });
  const roundTripMs = performance.now() - started;
  if (answer.status !== 'SUCCESS') throw new Error(`message refused: ${answer.res.message}`);
  const id = answer.res.message_id;
  const has = (client: LiveConnection) => client.state.messages.some((m) => m.message_id === id);
  await waitFor(() => has(sender) && has(observer), 'the message everywhere');
  return { serverMs: serverTime.take(), roundTripMs, bytes: proxy.bytes.fromClients + proxy.bytes.toClients };
}

/** The cases take turns, one message each, so drift of the machine weighs on both alike. */
async function measure(
  stack: BenchStack,
  proxy: TcpBalancer,
  serverTime: { take(): number },
): Promise<CaseResult[]> {
  const cases: Case[] = [];
  try {
    for (const history of HISTORIES) cases.push(await prepare(stack, proxy, history));
    for (let n = 0; n < WARMUP + SAMPLES; n += 1) {
      for (const item of cases) {
        const sample = await sendOne(proxy, serverTime, item, n);
        if (n >= WARMUP) item.samples.push(sample);
      }
    }
    return cases.map(({ history, observer, joinBytes, samples }) => {
      // The observer joined with the newest page of the history, then got every message live.
      if (observer.state.messages.length !== Math.min(history, LIVE_MESSAGE_PAGE) + WARMUP + SAMPLES)
        throw new Error('the observer missed messages');
      return {
        history,
        serverMs: median(samples.map((s) => s.serverMs)),
        serverP95Ms: quantile(
          samples.map((s) => s.serverMs),
          0.95,
        ),
        roundTripMs: median(samples.map((s) => s.roundTripMs)),
        bytes: median(samples.map((s) => s.bytes)),
        joinBytes,
      };
    });
  } finally {
    for (const item of cases) {
      item.sender.close();
      item.observer.close();
    }
  }
}

function report(results: CaseResult[], ratios: { time: number; bytes: number }, passed: boolean): string {
  const row = (r: CaseResult) =>
    `| ${r.history.toLocaleString('en')} | ${r.serverMs.toFixed(2)} ms (p95 ${r.serverP95Ms.toFixed(2)}) | ${r.roundTripMs.toFixed(2)} ms | ${r.bytes} B | ${r.joinBytes.toLocaleString('en')} B |`;
  return `# Realtime: the cost of one chat message against the session's history

Reproduce: \`npm run build && npm run bench:realtime-message -w scripts\` (a few minutes). Needs
what \`npm run bench\` needs: the tests' Postgres and Redis, and nginx (the bench stack); the
replica measured uses the in-memory adapter.

Result: **${passed ? 'PASS' : 'FAIL'}** (at most ${MAX_RATIO} times as much at 10,000 as at 10).

| history | server time, median | client round trip, median | bytes on the wire per message | joining (the newest ${LIVE_MESSAGE_PAGE} messages at most, for comparison) |
|---|---|---|---|---|
${results.map(row).join('\n')}

- Server time ratio (10,000 / 10): **${ratios.time.toFixed(2)}**
- Bytes ratio (10,000 / 10): **${ratios.bytes.toFixed(2)}**

How it is measured (scripts/bench/realtime/message-cost.ts): the bench stack (scripts/bench/support/bench-stack.ts:
every service as its built process on a throwaway database, as \`npm run stack\`) serves studies and
records; the realtime replica measured runs in the benchmark's process, alone (the in-memory adapter), on
them. A session is
filled with 10 and another with 10,000 messages through records; in each, a researcher (the
sender) and a participant join through a byte-counting TCP proxy, then each sender sends ${WARMUP} warm-up and ${SAMPLES}
measured messages, one at a time, the two sessions taking turns. *Server time*: from the message's frame arriving in the
socket.io engine to its acknowledgement leaving it (validation, access check, the records write,
the broadcast). *Bytes*: everything both clients sent and received, WebSocket framing included,
until the sender had its acknowledgement and both had the message (its messageAdded). Medians.
The last column shows what joining costs: a join carries the newest page of the list at most, so
it stops growing at ${LIVE_MESSAGE_PAGE} messages however long the session.

Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
`;
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-bench-realtime-message-'));
  const stack = await startBenchStack('realtime_message', scratch);
  // One sender sends the measured messages as fast as they are acknowledged: above the write
  // limit a user has (LIVE_WRITE_LIMIT), which is not what is measured here.
  const replica = await stack.replica({ LIVE_WRITE_LIMIT: '10000' });
  const proxy = await TcpBalancer.start([Number(new URL(replica.url).port)]);
  try {
    const serverTime = watchServerTime(replica.app.get(RealtimeGateway));
    const results = await measure(stack, proxy, serverTime);
    for (const result of results) console.log(JSON.stringify(result));
    const [small, large] = results as [CaseResult, CaseResult];
    const ratios = { time: large.serverMs / small.serverMs, bytes: large.bytes / small.bytes };
    const passed = ratios.time <= MAX_RATIO && ratios.bytes <= MAX_RATIO;
    fs.mkdirSync(path.dirname(REPORT), { recursive: true });
    fs.writeFileSync(REPORT, report(results, ratios, passed));
    console.log(
      `server time ratio ${ratios.time.toFixed(2)}, bytes ratio ${ratios.bytes.toFixed(2)}: ${passed ? 'PASS' : 'FAIL'}`,
    );
    console.log(`written to ${path.relative(process.cwd(), REPORT)}`);
    if (!passed) process.exitCode = 1;
  } finally {
    await proxy.close();
    await replica.close();
    await stack.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
