import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { ascending, quantile, sleep } from '../support/measure';
import { inputOf } from '../support/child';

/**
 * P6's load generator, its own process: GETs `url` at a fixed rate, open loop (each request leaves
 * at its scheduled time whether or not the earlier ones have answered), over keep-alive
 * connections. Latency counts from the scheduled time, so a server that falls behind is charged for
 * the wait it causes. A warm-up (not counted) comes first. At most `maxInFlight` at once; past it a
 * request is dropped and counted, so an overloaded server cannot make this run without end.
 */

export interface LoadInput {
  url: string;
  headers: Record<string, string>;
  /** PEM of the CA to trust for https. */
  ca?: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
  maxInFlight: number;
  timeoutMs: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  failed: number;
  dropped: number;
  p50: number;
  p99: number;
  max: number;
  /** Bytes of the first answer's body (to see both sides answer alike). */
  bodyBytes: number;
  /** Requests of the warm-up that answered 200: the server's CPU is read over both phases. */
  warmupOk: number;
}

const input = inputOf<LoadInput>();
const secure = input.url.startsWith('https:');
const agentOptions = { keepAlive: true, maxSockets: input.maxInFlight };
const agent = secure ? new https.Agent({ ...agentOptions, ca: input.ca }) : new http.Agent(agentOptions);
let bodyBytes = 0;

/** One GET, its body read to the end: whether it answered 200. */
function get(): Promise<boolean> {
  return new Promise((resolve) => {
    const request = (secure ? https : http).get(
      input.url,
      { agent, headers: input.headers, timeout: input.timeoutMs },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          bodyBytes ||= bytes;
          resolve(res.statusCode === 200);
        });
        res.on('error', () => resolve(false));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** `seconds` of requests at the rate; the latencies of those that answered 200. */
async function openLoop(
  seconds: number,
): Promise<Pick<LoadResult, 'sent' | 'ok' | 'failed' | 'dropped'> & { latencies: number[] }> {
  const total = Math.round(input.rate * seconds);
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let inFlight = 0;
  let failed = 0;
  let dropped = 0;
  const start = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / input.rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    if (inFlight >= input.maxInFlight) {
      dropped += 1;
      continue;
    }
    inFlight += 1;
    pending.push(
      get().then((ok) => {
        inFlight -= 1;
        if (ok) latencies.push(performance.now() - due);
        else failed += 1;
      }),
    );
  }
  await Promise.all(pending);
  return { sent: total - dropped, ok: latencies.length, failed, dropped, latencies };
}

async function main(): Promise<void> {
  const warmup = await openLoop(input.warmupSeconds);
  const { latencies, ...counts } = await openLoop(input.seconds);
  const sorted = ascending(latencies);
  const result: LoadResult = {
    ...counts,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
    bodyBytes,
    warmupOk: warmup.ok,
  };
  process.stdout.write(JSON.stringify(result));
  agent.destroy();
}

void main();
