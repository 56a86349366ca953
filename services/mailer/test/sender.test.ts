import { generateKeyPairSync } from 'node:crypto';
import { DEV_MAIL_FROM, mailSender, type MailConfig } from '../src/mail.config';
import { createMailQueue, type MailQueue } from '../src/mail-queue';
import { startMailWorker, type MailWorker } from '../src/mail.worker';
import { TEST_REDIS_URL, captureLogger, deleteRedisPrefix, magicLinkJob, testMailConfig } from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

/** The tags of a DKIM-Signature header value (`v=1; a=rsa-sha256; d=...`). */
const dkimTags = (value: string): Record<string, string> =>
  Object.fromEntries(
    value
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  );

describe('the sender of the mails (BullMQ worker, real SMTP server)', () => {
  const log = captureLogger();
  let sink: SmtpSink;
  let run: { config: MailConfig; worker: MailWorker; producer: MailQueue } | undefined;

  const start = (env: Record<string, string>) => {
    const config = testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url, ...env });
    run = {
      config,
      worker: startMailWorker(config, log.logger),
      producer: createMailQueue(config, log.logger),
    };
    return run;
  };
  const send = async (env: Record<string, string>) => {
    const { producer } = start(env);
    const job = magicLinkJob();
    await producer.enqueue(job);
    return { job, mail: await sink.waitForMail((m) => recipientsOf(m).includes(job.to)) };
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterEach(async () => {
    if (!run) return;
    await run.producer.close();
    await run.worker.close();
    await deleteRedisPrefix(run.config.QUEUE_PREFIX);
    run = undefined;
  });

  afterAll(async () => {
    await sink?.close();
  });

  it("sends from MAIL_FROM, with a Message-ID in the sender's domain and the link of PUBLIC_URL untouched", async () => {
    const { job, mail } = await send({ MAIL_FROM: 'User Interaction Simulator <no-reply@mail.example.org>' });

    expect(mail.from?.value).toEqual([
      { name: 'User Interaction Simulator', address: 'no-reply@mail.example.org' },
    ]);
    expect(mail.messageId).toMatch(/^<[0-9a-f]{32}@mail\.example\.org>$/);
    // The link is the producer's (auth builds it from PUBLIC_URL); the words are the renderer's.
    expect(mail.text).toContain(`\n${job.link}\n`);
    expect(mail.html).toContain(`<a href="${job.link.replace(/&/g, '&amp;')}">Sign in</a>`);
    expect(mail.headers.has('dkim-signature')).toBe(false);
  });

  it('signs with DKIM when configured (d= and s= from the variables, rsa-sha256)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { mail, job } = await send({
      MAIL_FROM: 'no-reply@example.org',
      DKIM_DOMAIN: 'example.org',
      DKIM_SELECTOR: 'uis2025',
      DKIM_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    });

    const header = mail.headerLines.find((line) => line.key === 'dkim-signature');
    expect(header).toBeDefined();
    const tags = dkimTags(header!.line.slice(header!.line.indexOf(':') + 1));
    expect(tags).toMatchObject({ v: '1', a: 'rsa-sha256', d: 'example.org', s: 'uis2025' });
    expect(tags.h?.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['from', 'subject', 'message-id']),
    );
    expect(tags.b?.length).toBeGreaterThan(300);
    expect(mail.text).toContain(job.link);
  });

  it('keeps the development sender when MAIL_FROM is unset (allowed for a local PUBLIC_URL)', async () => {
    const { mail } = await send({});
    expect(mail.from?.value).toEqual([{ name: 'User Interaction Simulator', address: 'no-reply@localhost' }]);
    expect(mailSender(run!.config)).toBe(DEV_MAIL_FROM);
    expect(mail.messageId).toMatch(/@localhost>$/);
  });
});
