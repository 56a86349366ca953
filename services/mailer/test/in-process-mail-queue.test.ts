import { InProcessMailQueue, createMailQueue, type MailQueue } from '../src/mail-queue';
import { MailJobInvalidError } from '../src/mail.processor';
import { captureLogger, magicLinkJob, sleep, testMailConfig, tokenOf, waitFor } from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('in-process mail queue (no REDIS_URL) over a real SMTP server', () => {
  const log = captureLogger();
  let sink: SmtpSink;
  const queues: MailQueue[] = [];

  const newQueue = (env: Record<string, string> = {}) => {
    const queue = createMailQueue(
      testMailConfig({ SMTP_URL: sink.url, MAIL_BACKOFF_MS: '100', ...env }),
      log.logger,
    );
    queues.push(queue);
    return queue;
  };
  const mailsTo = (to: string) => sink.mails.filter((mail) => recipientsOf(mail).includes(to));

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterEach(async () => {
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
  });

  afterAll(async () => {
    await sink?.close();
  });

  it('is chosen without REDIS_URL and delivers one mail holding the full link', async () => {
    const queue = newQueue();
    expect(queue).toBeInstanceOf(InProcessMailQueue);
    const job = magicLinkJob();

    await queue.enqueue(job);
    const mail = await sink.waitForMail((m) => recipientsOf(m).includes(job.to));

    expect(recipientsOf(mail)).toEqual([job.to]);
    expect(mail.text).toContain(job.link);
    await sleep(200);
    expect(mailsTo(job.to)).toHaveLength(1);
  });

  it('ignores a duplicate of a request, while queued and after it was sent', async () => {
    const queue = newQueue();
    const job = magicLinkJob();

    await queue.enqueue(job);
    await queue.enqueue(job);
    await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
    await queue.enqueue(job);
    await sleep(300);

    expect(mailsTo(job.to)).toHaveLength(1);
  });

  it('retries with exponential backoff and sends once', async () => {
    const queue = newQueue();
    const job = magicLinkJob();
    const rejectedBefore = sink.rejected();
    sink.failNext(2);

    const started = Date.now();
    await queue.enqueue(job);
    await sink.waitForMail((m) => recipientsOf(m).includes(job.to));

    expect(Date.now() - started).toBeGreaterThanOrEqual(280); // 100 ms, then 200 ms
    expect(sink.rejected() - rejectedBefore).toBe(2);
    expect(mailsTo(job.to)).toHaveLength(1);
    const retries = log
      .records()
      .filter((r) => r.requestId === job.requestId && r.msg === 'mail attempt failed, will retry');
    expect(retries.map((r) => [r.attempt, r.retryInMs])).toEqual([
      [1, 100],
      [2, 200],
    ]);
    expect(log.lines.join('')).not.toContain(tokenOf(job.link));
  });

  it('gives up after MAIL_ATTEMPTS attempts', async () => {
    const queue = newQueue({ MAIL_ATTEMPTS: '2', MAIL_BACKOFF_MS: '10' });
    const job = magicLinkJob();
    sink.failNext(3);

    await queue.enqueue(job);
    await waitFor(
      () => log.records().some((r) => r.requestId === job.requestId && r.msg === 'mail failed for good'),
      'the give-up log line',
      10_000,
    );
    sink.failNext(0);

    expect(mailsTo(job.to)).toHaveLength(0);
    const attempts = log
      .records()
      .filter((r) => r.requestId === job.requestId && typeof r.attempt === 'number');
    expect(attempts.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it('refuses a bad job at enqueue', async () => {
    const queue = newQueue();
    await expect(queue.enqueue({ ...magicLinkJob(), link: 'not a url' })).rejects.toBeInstanceOf(
      MailJobInvalidError,
    );
    await expect(queue.enqueue({ kind: 'other' } as never)).rejects.toBeInstanceOf(MailJobInvalidError);
  });

  it('close() drops a waiting retry and leaves no timer behind', async () => {
    const queue = newQueue({ MAIL_BACKOFF_MS: '60000' });
    const job = magicLinkJob();
    const rejectedBefore = sink.rejected();
    sink.failNext(1);

    await queue.enqueue(job);
    await waitFor(() => sink.rejected() > rejectedBefore, 'the rejected attempt', 10_000);
    await waitFor(
      () => log.records().some((r) => r.requestId === job.requestId && r.retryInMs === 60_000),
      'the retry log line',
      10_000,
    );
    const timersBeforeClose = activeTimers();

    const started = Date.now();
    await queue.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    // The 60 s retry timer is gone (jest exiting without --forceExit is the other half of this check).
    expect(activeTimers()).toBeLessThan(timersBeforeClose);
    expect(mailsTo(job.to)).toHaveLength(0);
    await expect(queue.enqueue(magicLinkJob())).rejects.toThrow('closed');
  });

  it('close() sends what was enqueued just before', async () => {
    const queue = newQueue();
    const job = magicLinkJob();

    await queue.enqueue(job);
    await queue.close();

    expect(mailsTo(job.to)).toHaveLength(1);
  });

  it('close() waits for a send under way', async () => {
    const queue = newQueue();
    const job = magicLinkJob();
    sink.delayNext(300);

    await queue.enqueue(job);
    await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
    await queue.close();
    sink.delayNext(0);

    expect(log.records().some((r) => r.requestId === job.requestId && r.msg === 'mail sent')).toBe(true);
  });
});
