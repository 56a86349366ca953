import type { MailConfig } from '../src/mail.config';
import { createMailQueue, type MailQueue } from '../src/mail-queue';
import { startMailWorker, type MailWorker } from '../src/mail.worker';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  sleep,
  testMailConfig,
  waitFor,
} from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

/** The value below which `share` of the sorted samples fall (nearest rank). */
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;

/**
 * One BullMQ worker in this process against `sink`, fed by a producer; records, per mail, the time
 * from enqueue to its arrival at the server.
 */
function relayRun(sink: SmtpSink, env: Record<string, string> = {}) {
  const log = captureLogger('warn');
  const config: MailConfig = testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url, ...env });
  const worker: MailWorker = startMailWorker(config, log.logger);
  const producer: MailQueue = createMailQueue(config, log.logger);
  const enqueuedAt = new Map<string, number>();
  const arrivals: { to: string; at: number }[] = [];
  const unsubscribe = sink.onMail((mail, at) => {
    for (const to of recipientsOf(mail)) if (enqueuedAt.has(to)) arrivals.push({ to, at });
  });
  const enqueue = () => {
    const job = magicLinkJob();
    enqueuedAt.set(job.to, Date.now());
    return producer.enqueue(job);
  };
  const latencies = () => arrivals.map(({ to, at }) => at - enqueuedAt.get(to)!).sort((a, b) => a - b);
  return {
    log,
    worker,
    enqueuedAt,
    arrivals,
    enqueue,
    latencies,
    /** Resolves once every enqueued mail arrived. */
    allArrived: (timeoutMs: number) =>
      waitFor(
        () => arrivals.length >= enqueuedAt.size,
        `${enqueuedAt.size} mails to arrive`,
        timeoutMs,
      ).catch((error: Error) => {
        throw new Error(`${error.message} (${arrivals.length} arrived)\n${log.lines.join('')}`);
      }),
    async close() {
      unsubscribe();
      await producer.close();
      await worker.close();
      await deleteRedisPrefix(config.QUEUE_PREFIX);
    },
  };
}

describe('sending through a slow relay (500 ms before its greeting, 100 ms per message)', () => {
  let sink: SmtpSink;
  let run: ReturnType<typeof relayRun> | undefined;

  beforeEach(async () => {
    sink = await startSmtpSink({ greetingDelayMs: 500, messageDelayMs: 100 });
  });

  afterEach(async () => {
    await run?.close();
    run = undefined;
    await sink.close();
  });

  it('delivers 20 mails/s for 30 s, all of them once, p99 from enqueue to arrival under 3 s', async () => {
    run = relayRun(sink);
    const perSecond = 20;
    const total = 30 * perSecond;
    const started = Date.now();
    const enqueues: Promise<void>[] = [];
    // The load's shape: one request every 50 ms on a fixed schedule (a late tick does not shift the rest).
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / perSecond - Date.now();
      if (wait > 0) await sleep(wait);
      enqueues.push(run.enqueue());
    }
    await Promise.all(enqueues);
    await run.allArrived(30_000);

    const latencies = run.latencies();
    const lastArrival = Math.max(...run.arrivals.map((a) => a.at));
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const max = latencies[latencies.length - 1]!;
    const throughput = total / ((lastArrival - started) / 1000);
    console.info(
      `slow relay, ${perSecond}/s for 30 s: ${total} mails over ${sink.connections()} connections, ` +
        `${throughput.toFixed(1)} mails/s, enqueue-to-arrival p50 ${p50} ms, p99 ${p99} ms, max ${max} ms`,
    );
    expect(sink.mails).toHaveLength(total);
    expect(new Set(run.arrivals.map((a) => a.to)).size).toBe(total);
    expect(p99).toBeLessThanOrEqual(3_000);
    // Pooled: at most 5 connections at a time, each replaced after 100 mails.
    expect(sink.connections()).toBeLessThanOrEqual(5 + total / 100);
  }, 90_000);

  it('drains a burst over its pooled connections far faster than one session per mail', async () => {
    run = relayRun(sink);
    const total = 200;
    const started = Date.now();
    await Promise.all(Array.from({ length: total }, () => run!.enqueue()));
    await run.allArrived(30_000);

    const seconds = (Math.max(...run.arrivals.map((a) => a.at)) - started) / 1000;
    console.info(
      `slow relay, burst of ${total}: ${(total / seconds).toFixed(1)} mails/s over ${sink.connections()} connections`,
    );
    // One 0.6 s session per mail, 4 at a time, was 6.7 mails/s; five pooled connections allow ~45.
    expect(total / seconds).toBeGreaterThan(20);
    expect(sink.connections()).toBeLessThanOrEqual(5 + total / 100);
  }, 60_000);

  it('opens SMTP_POOL_CONNECTIONS connections and replaces each after SMTP_POOL_MESSAGES mails', async () => {
    run = relayRun(sink, { SMTP_POOL_CONNECTIONS: '1', SMTP_POOL_MESSAGES: '4' });
    await Promise.all(Array.from({ length: 12 }, () => run!.enqueue()));
    await run.allArrived(20_000);

    expect(sink.mails).toHaveLength(12);
    expect(sink.connections()).toBe(3);
  }, 30_000);
});

describe('a pooled connection against a relay that answers at once', () => {
  let sink: SmtpSink;
  let run: ReturnType<typeof relayRun> | undefined;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await run?.close();
    await sink?.close();
  });

  it("sends each message's end right after its body, without waiting for the relay's delayed ACK", async () => {
    run = relayRun(sink, { SMTP_POOL_CONNECTIONS: '1' });
    await Promise.all(Array.from({ length: 20 }, () => run!.enqueue()));
    await run.allArrived(20_000);

    // With Nagle's algorithm on, the end of the data waited for the ACK of the body: 40 ms on Linux.
    const times = sink.dataTimes().sort((a, b) => a - b);
    expect(percentile(times, 0.5)).toBeLessThan(20);
  }, 30_000);
});

describe('MAIL_RATE_PER_SECOND (BullMQ limiter)', () => {
  let sink: SmtpSink;
  let run: ReturnType<typeof relayRun> | undefined;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await run?.close();
    await sink?.close();
  });

  it('sends no faster than the cap', async () => {
    run = relayRun(sink, { MAIL_RATE_PER_SECOND: '5' });
    const started = Date.now();
    await Promise.all(Array.from({ length: 15 }, () => run!.enqueue()));
    await run.allArrived(20_000);

    const times = run.arrivals.map((a) => a.at - started).sort((a, b) => a - b);
    // 5, 5 and 5: the third group cannot start before two windows of 1 s have passed.
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(1_900);
    expect(times.filter((t) => t < 900)).toHaveLength(5);
  }, 30_000);
});
