import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { freePort, testSecrets } from '@uis/kit/testing';
import { QUEUES } from '@uis/proto';
import { Queue } from 'bullmq';
import type { MailConfig } from '../src/mail.config';
import { createMailQueue, mailJobId, type MailQueue } from '../src/mail-queue';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  testMailConfig,
  waitFor,
} from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';
import { WorkerProcess, buildMailer } from './worker-process';

// Both describes run the built code (`tsc -b services/mailer` once, here: two files building at once
// would race on dist/).
beforeAll(() => buildMailer(), 120_000);

describe('a mail worker process killed mid-send (real SIGKILL, Redis and SMTP server)', () => {
  const log = captureLogger();
  /** Short locks: the next worker finds a dead worker's jobs in about a second, not 30 s. */
  const fastTakeover = { lockDuration: 1_000, stalledInterval: 300 };
  let sink: SmtpSink;
  let config: MailConfig;
  let producer: MailQueue;
  let inspector: Queue;
  const workers: WorkerProcess[] = [];

  const workerEnv = () => ({
    REDIS_URL: TEST_REDIS_URL,
    SMTP_URL: sink.url,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
    SMTP_POOL_CONNECTIONS: '3',
    MAIL_BACKOFF_MS: '200',
    LOG_LEVEL: 'info',
  });
  const startWorker = async () => {
    const worker = await WorkerProcess.start(workerEnv(), fastTakeover);
    workers.push(worker);
    return worker;
  };
  const mailsTo = (to: string) => sink.mails.filter((mail) => recipientsOf(mail).includes(to));
  const statesOf = (requestIds: string[]) =>
    Promise.all(requestIds.map(async (id) => (await inspector.getJob(mailJobId(id)))?.getState()));

  beforeAll(async () => {
    sink = await startSmtpSink();
    config = testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url });
    producer = createMailQueue(config, log.logger);
    inspector = new Queue(QUEUES.mail, { connection: { url: TEST_REDIS_URL }, prefix: config.QUEUE_PREFIX });
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.kill()));
    await producer?.close();
    await inspector?.close();
    await sink?.close();
    if (config) await deleteRedisPrefix(config.QUEUE_PREFIX);
  });

  it('delivers every request of a batch exactly once when the worker dies waiting for "250" and another starts', async () => {
    const jobs = Array.from({ length: 12 }, () => magicLinkJob());
    const first = await startWorker();
    // The server keeps each mail but does not answer it: the worker is caught mid-transaction.
    sink.holdReplies();
    for (const job of jobs) await producer.enqueue(job);

    // Its three pooled connections each wait for the "250" of a mail the server already has; the
    // other jobs are active in the worker (queued for a connection) or still waiting in Redis.
    await sink.waitForHeld(3);
    await first.kill();
    sink.releaseReplies();
    expect(sink.mails.length).toBe(3);

    const second = await startWorker();
    const ids = jobs.map((job) => job.requestId);
    await waitFor(
      async () => (await statesOf(ids)).every((state) => state === 'completed'),
      'every job to complete',
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nfirst worker:\n${first.output}\nsecond worker:\n${second.output}`);
    });

    expect(jobs.map((job) => mailsTo(job.to).length)).toEqual(jobs.map(() => 1));
    expect(sink.mails.length).toBe(jobs.length);
    // The three the dead worker had handed over are recognised, not sent again.
    expect(second.logged('mail handed over by an earlier attempt, not sending again')).toHaveLength(3);
    await second.stop();
  });
});

describe('the mailer run alone (node dist/src/main.js)', () => {
  it('exits at boot with the reason when MAIL_FROM is missing for a public deployment', async () => {
    const child = spawn(process.execPath, [path.join(__dirname, '../dist/src/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...testSecrets(),
        PORT: String(await freePort()),
        PUBLIC_URL: 'https://uis.example.org',
        SMTP_URL: 'smtp://relay.example.org:587',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(1);
    expect(stderr).toContain('mailer: Invalid configuration, fix these environment variables:');
    expect(stderr).toContain(
      'MAIL_FROM: is required when PUBLIC_URL (https://uis.example.org) is not a local address',
    );
  });
});
