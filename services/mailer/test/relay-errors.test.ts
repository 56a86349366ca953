import net, { type AddressInfo } from 'node:net';
import { freePort } from '@uis/kit/testing';
import { QUEUES } from '@uis/proto';
import { Queue } from 'bullmq';
import type { MailConfig } from '../src/mail.config';
import { createMailQueue, mailJobId, type MailQueue } from '../src/mail-queue';
import { startMailWorker, type MailWorker } from '../src/mail.worker';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  testMailConfig,
  tokenOf,
  waitFor,
  type CapturedLogger,
} from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

/** A BullMQ worker of its own queue (own prefix) sending to `smtpUrl`, with fast retries. */
class Harness {
  readonly log: CapturedLogger = captureLogger();
  readonly config: MailConfig;
  readonly worker: MailWorker;
  readonly producer: MailQueue;
  readonly inspector: Queue;

  constructor(smtpUrl: string, env: Record<string, string> = {}) {
    this.config = testMailConfig({
      REDIS_URL: TEST_REDIS_URL,
      SMTP_URL: smtpUrl,
      MAIL_ATTEMPTS: '4',
      MAIL_BACKOFF_MS: '100',
      ...env,
    });
    this.worker = startMailWorker(this.config, this.log.logger);
    this.producer = createMailQueue(this.config, this.log.logger);
    this.inspector = new Queue(QUEUES.mail, {
      connection: { url: TEST_REDIS_URL },
      prefix: this.config.QUEUE_PREFIX,
    });
  }

  job(requestId: string) {
    return this.inspector.getJob(mailJobId(requestId));
  }

  async waitForState(requestId: string, state: string, timeoutMs = 10_000) {
    await waitFor(
      async () => (await (await this.job(requestId))?.getState()) === state,
      `job ${requestId} to be ${state}`,
      timeoutMs,
    );
  }

  /**
   * Waits for a job to fail for good and answers its log record: BullMQ stores the job as failed
   * before its worker emits 'failed', which logs and counts it, so the state alone comes too early.
   */
  async failedForGood(requestId: string, timeoutMs = 10_000) {
    await this.waitForState(requestId, 'failed', timeoutMs);
    return waitFor(
      () => this.logged(requestId, 'mail failed for good')[0],
      `job ${requestId}'s failure to be logged`,
    );
  }

  /** Log records about one request with this message. */
  logged(requestId: string, msg: string) {
    return this.log.records().filter((r) => r.requestId === requestId && r.msg === msg);
  }

  async close() {
    await this.producer.close();
    await this.worker.close();
    await this.inspector.close();
    await deleteRedisPrefix(this.config.QUEUE_PREFIX);
  }
}

describe('relay errors (BullMQ worker, real SMTP server)', () => {
  let sink: SmtpSink;
  let harness: Harness | undefined;
  const mailsTo = (to: string) => sink.mails.filter((mail) => recipientsOf(mail).includes(to));

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  afterAll(async () => {
    await sink?.close();
  });

  it('retries a temporary refusal (451) and delivers the mail once the relay accepts it', async () => {
    harness = new Harness(sink.url);
    const job = magicLinkJob();
    sink.refuse(job.to, 451, 1);

    await harness.producer.enqueue(job);
    await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
    await harness.waitForState(job.requestId, 'completed');

    expect(mailsTo(job.to)).toHaveLength(1);
    const [retry, ...more] = harness.logged(job.requestId, 'mail attempt failed, will retry');
    expect(more).toEqual([]);
    expect(retry).toMatchObject({ level: 40, to: job.to, attempt: 1, responseCode: 451, code: 'EENVELOPE' });
    expect(harness.worker.totals()).toEqual({ sent: 1, alreadySent: 0, retried: 1, failed: 0 });
    expect(harness.log.lines.join('')).not.toContain(tokenOf(job.link));
  });

  it('does not retry a permanent refusal (550): the job fails at once, logged and counted', async () => {
    harness = new Harness(sink.url);
    const job = magicLinkJob();
    sink.refuse(job.to, 550);
    const rejectedBefore = sink.rejected();

    await harness.producer.enqueue(job);
    const failure = await harness.failedForGood(job.requestId);

    expect((await harness.job(job.requestId))!.attemptsMade).toBe(1);
    expect(sink.rejected() - rejectedBefore).toBe(1);
    expect(mailsTo(job.to)).toHaveLength(0);
    expect(harness.logged(job.requestId, 'mail attempt failed, will retry')).toEqual([]);
    expect(failure).toMatchObject({
      level: 50,
      to: job.to,
      permanent: true,
      responseCode: 550,
      totals: { sent: 0, alreadySent: 0, retried: 0, failed: 1 },
    });
    expect(String(failure.err)).toContain('550');
    expect(harness.worker.totals().failed).toBe(1);
  });

  it('retries while the relay cannot be reached, and sends once it is up', async () => {
    const port = await freePort();
    harness = new Harness(`smtp://127.0.0.1:${port}`);
    const job = magicLinkJob();

    await harness.producer.enqueue(job);
    const failure = await waitFor(
      () => harness!.logged(job.requestId, 'mail attempt failed, will retry')[0],
      'a failed attempt',
      10_000,
    );
    const late = await startSmtpSink({ port });
    try {
      await late.waitForMail((m) => recipientsOf(m).includes(job.to));
      await harness.waitForState(job.requestId, 'completed');
      expect(failure).toMatchObject({ attempt: 1, code: 'ESOCKET' });
      expect(String(failure.err)).toContain('ECONNREFUSED');
      expect(late.mails).toHaveLength(1);
    } finally {
      // The pool keeps its connection to the server open: close the sender first.
      await harness.close();
      harness = undefined;
      await late.close();
    }
  });

  it("gives up an attempt on a relay that never greets after 10 s, not nodemailer's 30 s", async () => {
    // Accepts the connection and says nothing.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      harness = new Harness(`smtp://127.0.0.1:${port}`, { MAIL_ATTEMPTS: '1' });
      const job = magicLinkJob();
      const started = Date.now();
      await harness.producer.enqueue(job);
      const failure = await waitFor(
        () => harness!.logged(job.requestId, 'mail failed for good')[0],
        'the attempt to fail',
        20_000,
      );

      expect(failure).toMatchObject({ code: 'ETIMEDOUT', permanent: false });
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await harness?.close();
      harness = undefined;
      silent.close();
    }
  }, 30_000);

  it('never lets a mail that cannot be sent hold up the ones behind it', async () => {
    // One connection, so the stuck mail and the others share it.
    harness = new Harness(sink.url, {
      SMTP_POOL_CONNECTIONS: '1',
      MAIL_ATTEMPTS: '3',
      MAIL_BACKOFF_MS: '1000',
    });
    const stuck = magicLinkJob();
    sink.refuse(stuck.to, 451);
    const others = Array.from({ length: 10 }, () => magicLinkJob());

    await harness.producer.enqueue(stuck);
    for (const job of others) await harness.producer.enqueue(job);
    await Promise.all(others.map((job) => sink.waitForMail((m) => recipientsOf(m).includes(job.to))));

    // All ten went while the stuck one was still waiting out its backoff (1 s, then 2 s).
    expect(harness.logged(stuck.requestId, 'mail failed for good')).toEqual([]);
    expect(await harness.failedForGood(stuck.requestId, 15_000)).toMatchObject({
      permanent: false,
      attempt: 3,
      responseCode: 451,
    });
    expect(harness.worker.totals()).toMatchObject({ sent: 10, retried: 2, failed: 1 });
  }, 30_000);

  it('sends over smtps:// (TLS from the first byte)', async () => {
    const secure = await startSmtpSink({ secure: true });
    try {
      harness = new Harness(secure.url);
      const job = magicLinkJob();
      await harness.producer.enqueue(job);
      const mail = await secure.waitForMail((m) => recipientsOf(m).includes(job.to));
      expect(mail.text).toContain(job.link);
    } finally {
      await harness?.close();
      harness = undefined;
      await secure.close();
    }
  });
});

describe('relay errors (in-process queue)', () => {
  let sink: SmtpSink;
  const log = captureLogger();
  const queues: MailQueue[] = [];
  const newQueue = (env: Record<string, string> = {}) => {
    const queue = createMailQueue(
      testMailConfig({ SMTP_URL: sink.url, MAIL_BACKOFF_MS: '50', ...env }),
      log.logger,
    );
    queues.push(queue);
    return queue;
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await sink?.close();
  });

  it('does not retry a permanent refusal (550) and counts it', async () => {
    const queue = newQueue();
    const job = magicLinkJob();
    sink.refuse(job.to, 550);
    const rejectedBefore = sink.rejected();

    await queue.enqueue(job);
    const failure = await waitFor(
      () => log.records().find((r) => r.requestId === job.requestId && r.msg === 'mail failed for good'),
      'the give-up log line',
      10_000,
    );

    expect(failure).toMatchObject({ permanent: true, responseCode: 550, attempt: 1 });
    expect(failure.totals).toMatchObject({ failed: 1, retried: 0 });
    expect(sink.rejected() - rejectedBefore).toBe(1);
  });

  it('keeps MAIL_RATE_PER_SECOND in its own pool', async () => {
    const queue = newQueue({ MAIL_RATE_PER_SECOND: '4' });
    const jobs = Array.from({ length: 8 }, () => magicLinkJob());
    const arrivals: number[] = [];
    const unsubscribe = sink.onMail((mail, at) => {
      if (jobs.some((job) => recipientsOf(mail).includes(job.to))) arrivals.push(at);
    });
    const started = Date.now();
    try {
      for (const job of jobs) await queue.enqueue(job);
      await waitFor(() => arrivals.length === jobs.length, 'all eight mails', 10_000);
    } finally {
      unsubscribe();
    }
    // Four in the first second, four after it.
    expect(Math.max(...arrivals) - started).toBeGreaterThanOrEqual(950);
    expect(arrivals.filter((at) => at - started < 900)).toHaveLength(4);
  });
});
