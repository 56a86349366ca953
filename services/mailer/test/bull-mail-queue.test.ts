import { QUEUES } from '@uis/proto';
import { Queue } from 'bullmq';
import { mailSender, type MailConfig } from '../src/mail.config';
import { BullMailQueue, createMailQueue, mailJobId, type MailQueue } from '../src/mail-queue';
import { MailJobInvalidError } from '../src/mail.processor';
import { messageIdFor } from '../src/mail.transport';
import { startMailWorker, type MailWorker, type MailWorkerOptions } from '../src/mail.worker';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  sleep,
  testMailConfig,
  tokenOf,
  waitFor,
} from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

describe('mail over BullMQ (real Redis, real SMTP server)', () => {
  const log = captureLogger();
  let sink: SmtpSink;
  let config: MailConfig;
  let producer: MailQueue;
  /** Reads job states; never processes. */
  let inspector: Queue;
  const workers = new Set<MailWorker>();

  const startWorker = (options?: MailWorkerOptions, workerConfig = config) => {
    const worker = startMailWorker(workerConfig, log.logger, options);
    workers.add(worker);
    return worker;
  };
  const stopWorker = async (worker: MailWorker, options?: { force?: boolean }) => {
    await worker.close(options);
    workers.delete(worker);
  };
  const mailsTo = (to: string) => sink.mails.filter((mail) => recipientsOf(mail).includes(to));
  const jobOf = (requestId: string, queue = inspector) => queue.getJob(mailJobId(requestId));
  const stateOf = async (requestId: string, queue = inspector) => (await jobOf(requestId, queue))?.getState();
  const waitForState = (requestId: string, state: string, timeoutMs = 10_000, queue = inspector) =>
    waitFor(
      async () => (await stateOf(requestId, queue)) === state,
      `job ${requestId} to be ${state}`,
      timeoutMs,
    );

  beforeAll(async () => {
    sink = await startSmtpSink();
    config = testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url, MAIL_BACKOFF_MS: '200' });
    producer = createMailQueue(config, log.logger);
    inspector = new Queue(QUEUES.mail, { connection: { url: TEST_REDIS_URL }, prefix: config.QUEUE_PREFIX });
  });

  afterEach(async () => {
    await Promise.all([...workers].map((worker) => stopWorker(worker)));
  });

  afterAll(async () => {
    await producer?.close();
    await inspector?.close();
    await sink?.close();
    if (config) await deleteRedisPrefix(config.QUEUE_PREFIX);
  });

  it('chooses BullMQ when REDIS_URL is set and delivers one mail holding the full link', async () => {
    expect(producer).toBeInstanceOf(BullMailQueue);
    startWorker();
    const job = magicLinkJob();

    await producer.enqueue(job);
    const mail = await sink.waitForMail((m) => recipientsOf(m).includes(job.to));

    expect(recipientsOf(mail)).toEqual([job.to]);
    expect(mail.subject).toBe('Your sign-in link for User Interaction Simulator');
    expect(mail.text).toContain(job.link);
    expect(mail.text).toContain('15 minutes');
    expect(mail.html).toContain(job.link.replace(/&/g, '&amp;'));
    expect(mail.messageId).toBe(messageIdFor(job.requestId, mailSender(config)));
    await waitForState(job.requestId, 'completed');
    expect(mailsTo(job.to)).toHaveLength(1);
    // Logs name the recipient and the request, never the link's token.
    expect(log.lines.join('')).not.toContain(tokenOf(job.link));
  });

  it('sends one mail when the same request is enqueued twice (and again after it was sent)', async () => {
    startWorker();
    const job = magicLinkJob();

    await Promise.all([producer.enqueue(job), producer.enqueue({ ...job, link: `${job.link}-other` })]);
    await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
    await waitForState(job.requestId, 'completed');
    await producer.enqueue(job);
    await sleep(500);

    expect(mailsTo(job.to)).toHaveLength(1);
    expect(mailsTo(job.to)[0]!.text).toContain(`${job.link}\n`);
    expect((await jobOf(job.requestId))!.attemptsStarted).toBe(1);
  });

  describe('worker restarts', () => {
    // A queue of its own: workers of one queue share the stalled-check schedule, and these use a
    // short one so the next worker takes over a dead worker's job in about a second, not 30 s.
    const fastTakeover = { lockDuration: 1_000, stalledInterval: 300 };
    let restartConfig: MailConfig;
    let restartProducer: MailQueue;
    let restartInspector: Queue;

    beforeAll(() => {
      restartConfig = testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url });
      restartProducer = createMailQueue(restartConfig, log.logger);
      restartInspector = new Queue(QUEUES.mail, {
        connection: { url: TEST_REDIS_URL },
        prefix: restartConfig.QUEUE_PREFIX,
      });
    });

    afterAll(async () => {
      await restartProducer?.close();
      await restartInspector?.close();
      if (restartConfig) await deleteRedisPrefix(restartConfig.QUEUE_PREFIX);
    });

    it('delivers a job enqueued while no worker runs, once a worker starts', async () => {
      const job = magicLinkJob();
      await restartProducer.enqueue(job);
      await sleep(300);
      expect(await stateOf(job.requestId, restartInspector)).toBe('waiting');
      expect(mailsTo(job.to)).toHaveLength(0);

      startWorker(fastTakeover, restartConfig);
      await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
      await waitForState(job.requestId, 'completed', 10_000, restartInspector);
      expect(mailsTo(job.to)).toHaveLength(1);
    });

    it('sends a job exactly once when its worker dies mid-send and a new worker takes it over', async () => {
      const first = startWorker(fastTakeover, restartConfig);
      const job = magicLinkJob();
      // The worker dies while the server is still answering the DATA command: the mail went out,
      // but the job was never marked completed in the queue.
      sink.delayNext(1_000);
      await restartProducer.enqueue(job);
      await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
      await stopWorker(first, { force: true });
      sink.delayNext(0);
      expect(await stateOf(job.requestId, restartInspector)).toBe('active');

      // A new worker finds the stalled job, runs it again, and the sent marker stops a second mail.
      startWorker(fastTakeover, restartConfig);
      await waitForState(job.requestId, 'completed', 15_000, restartInspector);
      expect(mailsTo(job.to)).toHaveLength(1);
      expect((await jobOf(job.requestId, restartInspector))!.attemptsStarted).toBe(2);
      expect(
        log
          .records()
          .some(
            (r) =>
              r.requestId === job.requestId &&
              r.msg === 'mail already sent for this request, not sending again',
          ),
      ).toBe(true);
    });

    it('lets a gracefully stopped worker finish its send, and the next worker does not repeat it', async () => {
      const first = startWorker(fastTakeover, restartConfig);
      const job = magicLinkJob();
      sink.delayNext(500);
      await restartProducer.enqueue(job);
      await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
      await stopWorker(first);
      sink.delayNext(0);
      expect(await stateOf(job.requestId, restartInspector)).toBe('completed');

      startWorker(fastTakeover, restartConfig);
      const later = magicLinkJob();
      await restartProducer.enqueue(later);
      await sink.waitForMail((m) => recipientsOf(m).includes(later.to));
      await waitForState(later.requestId, 'completed', 10_000, restartInspector);
      expect(mailsTo(job.to)).toHaveLength(1);
      expect(mailsTo(later.to)).toHaveLength(1);
    });
  });

  it('retries with exponential backoff when the server refuses the first two attempts', async () => {
    startWorker();
    const job = magicLinkJob();
    const rejectedBefore = sink.rejected();
    sink.failNext(2);

    const started = Date.now();
    await producer.enqueue(job);
    const mail = await sink.waitForMail((m) => recipientsOf(m).includes(job.to), 15_000);
    const elapsed = Date.now() - started;

    expect(mail.text).toContain(job.link);
    expect(sink.rejected() - rejectedBefore).toBe(2);
    // 200 ms, then 400 ms: the waits double.
    expect(elapsed).toBeGreaterThanOrEqual(550);
    await waitForState(job.requestId, 'completed');
    expect(mailsTo(job.to)).toHaveLength(1);
    const retries = log
      .records()
      .filter((r) => r.requestId === job.requestId && r.msg === 'mail attempt failed, will retry');
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(retries.every((r) => r.to === job.to && r.attempts === config.MAIL_ATTEMPTS)).toBe(true);
    expect(log.lines.join('')).not.toContain(tokenOf(job.link));
  });

  it('refuses a bad payload without retrying it and keeps the worker running', async () => {
    startWorker();
    await expect(producer.enqueue({ ...magicLinkJob(), to: 'not-an-address' })).rejects.toBeInstanceOf(
      MailJobInvalidError,
    );

    // A producer that skips validation: the worker must refuse the job, not crash.
    const secret = 'SECRET-TOKEN-VALUE';
    await inspector.add(
      'magic-link',
      { kind: 'magic-link', to: 'x@example.com', link: `nope?token=${secret}` },
      {
        jobId: 'bad-payload-1',
        attempts: 5,
        backoff: { type: 'exponential', delay: 100 },
      },
    );
    await inspector.add('magic-link', 'not even an object', { jobId: 'bad-payload-2', attempts: 5 });
    await waitForState('bad-payload-1', 'failed');
    await waitForState('bad-payload-2', 'failed');
    const bad = (await inspector.getJob('bad-payload-1'))!;
    expect(bad.attemptsMade).toBe(1);
    expect(bad.failedReason).toMatch(/invalid mail job: requestId: .*link: /);
    expect(log.lines.join('')).not.toContain(secret);

    const good = magicLinkJob();
    await producer.enqueue(good);
    await sink.waitForMail((m) => recipientsOf(m).includes(good.to));
  });
});
