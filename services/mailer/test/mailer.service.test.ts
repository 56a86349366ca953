import type { INestApplication } from '@nestjs/common';
import { ConfigError } from '@uis/kit';
import { testSecrets } from '@uis/kit/testing';
import request from 'supertest';
import { createMailQueue, type MailQueue } from '../src/mail-queue';
import { mailerService } from '../src/mailer.service-definition';
import {
  TEST_REDIS_URL,
  captureLogger,
  deleteRedisPrefix,
  magicLinkJob,
  testMailConfig,
  uniquePrefix,
} from './helpers';
import { recipientsOf, startSmtpSink, type SmtpSink } from './smtp-sink';

describe('mailer service (Nest app)', () => {
  let sink: SmtpSink;
  let app: INestApplication | undefined;
  let producer: MailQueue | undefined;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterEach(async () => {
    await producer?.close();
    await app?.close();
    producer = undefined;
    app = undefined;
  });

  afterAll(async () => {
    await sink?.close();
    await deleteRedisPrefix(prefix);
  });

  it('runs the worker with REDIS_URL: mails go out, /ready checks Redis, and it stops cleanly', async () => {
    const env = {
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      REDIS_URL: TEST_REDIS_URL,
      SMTP_URL: sink.url,
      QUEUE_PREFIX: prefix,
    };
    app = await mailerService.createApp(env);
    producer = createMailQueue(
      testMailConfig({ REDIS_URL: TEST_REDIS_URL, SMTP_URL: sink.url, QUEUE_PREFIX: prefix }),
      captureLogger().logger,
    );
    const job = magicLinkJob();

    await producer.enqueue(job);
    const mail = await sink.waitForMail((m) => recipientsOf(m).includes(job.to));
    expect(mail.text).toContain(job.link);

    await request(app.getHttpServer()).get('/health').expect(200);
    const ready = await request(app.getHttpServer()).get('/ready').expect(200);
    expect(JSON.stringify(ready.body)).toContain('true');
  });

  it('runs health only without REDIS_URL', async () => {
    app = await mailerService.createApp({ ...testSecrets(), LOG_LEVEL: 'silent' });
    await request(app.getHttpServer()).get('/ready').expect(200);
  });

  it('refuses to start for a public PUBLIC_URL with a relay but no MAIL_FROM, saying why', async () => {
    const env = {
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      SMTP_URL: sink.url,
      PUBLIC_URL: 'https://uis.example.org',
    };
    const refusal = mailerService.createApp(env);
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    await expect(refusal).rejects.toThrow(
      /MAIL_FROM: is required when PUBLIC_URL \(https:\/\/uis\.example\.org\) is not a local address/,
    );
    app = await mailerService.createApp({ ...env, MAIL_FROM: 'UIS <no-reply@uis.example.org>' });
  });

  it('refuses to start with part of a DKIM configuration', async () => {
    await expect(
      mailerService.createApp({
        ...testSecrets(),
        LOG_LEVEL: 'silent',
        DKIM_DOMAIN: 'example.org',
        DKIM_SELECTOR: 's1',
      }),
    ).rejects.toThrow(
      'DKIM_PRIVATE_KEY: is required with DKIM_DOMAIN and DKIM_SELECTOR (DKIM needs all three, or none)',
    );
  });

  it('fails fast on a bad SMTP_URL', async () => {
    await expect(
      mailerService.createApp({ ...testSecrets(), LOG_LEVEL: 'silent', SMTP_URL: 'http://mail.example.com' }),
    ).rejects.toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});
