import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { mailSender } from '../src/mail.config';
import { createMailQueue, type MailQueue } from '../src/mail-queue';
import { messageIdFor } from '../src/mail.transport';
import { startMailWorker } from '../src/mail.worker';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  testMailConfig,
  tokenOf,
  waitFor,
} from './helpers';
import { recipientsOf } from './smtp-sink';

describe('dev outbox (no SMTP_URL)', () => {
  const log = captureLogger();
  let outbox: string;
  let queue: MailQueue | undefined;

  const emlFiles = async () =>
    (await readdir(outbox).catch(() => [])).filter((name) => name.endsWith('.eml'));

  beforeEach(async () => {
    outbox = await mkdtemp(path.join(tmpdir(), 'uis-outbox-'));
  });

  afterEach(async () => {
    await queue?.close();
    queue = undefined;
    jest.restoreAllMocks();
    await rm(outbox, { recursive: true, force: true });
  });

  it('writes an .eml file and prints one line with the full link', async () => {
    const lines: string[] = [];
    const config = testMailConfig({ OUTBOX_DIR: path.join(outbox, 'nested') });
    queue = createMailQueue(config, log.logger, { print: (line) => lines.push(line) });
    const job = magicLinkJob({ requestId: '../../escape attempt' });

    await queue.enqueue(job);
    await waitFor(() => lines.length > 0, 'the outbox line', 5_000);

    const files = (await readdir(path.join(outbox, 'nested'))).filter((name) => name.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-______escape_attempt\.eml$/);
    const mail = await simpleParser(await readFile(path.join(outbox, 'nested', files[0]!)));
    expect(recipientsOf(mail)).toEqual([job.to]);
    expect(mail.subject).toBe('Your sign-in link for User Interaction Simulator');
    expect(mail.text).toContain(job.link);
    expect(mail.messageId).toBe(messageIdFor(job.requestId, mailSender(config)));

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(job.link);
    expect(lines[0]).toContain(`[dev outbox] magic link for ${job.to}: ${job.link}`);
    expect(lines[0]).toContain(files[0]);
  });

  it('prints on the console by default, one line per mail, once per request', async () => {
    const consoleLog = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    queue = createMailQueue(testMailConfig({ OUTBOX_DIR: outbox }), log.logger);
    const job = magicLinkJob();

    await queue.enqueue(job);
    await queue.enqueue(job);
    await waitFor(async () => (await emlFiles()).length > 0, 'the .eml file', 5_000);
    await queue.close();

    const withLink = consoleLog.mock.calls.filter((args) =>
      args.some((arg) => String(arg).includes(job.link)),
    );
    expect(withLink).toHaveLength(1);
    expect(await emlFiles()).toHaveLength(1);
    // The structured log never holds the token, even in dev.
    expect(log.lines.join('')).not.toContain(tokenOf(job.link));
  });

  it('is used by the BullMQ worker too when there is Redis but no SMTP server', async () => {
    const lines: string[] = [];
    const config = testMailConfig({ REDIS_URL: TEST_REDIS_URL, OUTBOX_DIR: outbox });
    const worker = startMailWorker(config, log.logger, { print: (line) => lines.push(line) });
    queue = createMailQueue(config, log.logger);
    try {
      const job = magicLinkJob();
      await queue.enqueue(job);
      await waitFor(() => lines.length > 0, 'the outbox line', 10_000);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(job.link);
      expect(await emlFiles()).toHaveLength(1);
    } finally {
      await worker.close();
      await deleteRedisPrefix(config.QUEUE_PREFIX);
    }
  });
});
