import path from 'node:path';
import { loadConfig } from '@uis/kit';
import { mailEnv } from './mail.config';

describe('mailEnv', () => {
  it('has defaults for everything: no Redis, no SMTP, the dev outbox under .data/', () => {
    expect(loadConfig(mailEnv, {})).toEqual({
      MAIL_FROM: 'User Interaction Simulator <no-reply@localhost>',
      OUTBOX_DIR: path.resolve(process.cwd(), '.data/outbox'),
      QUEUE_PREFIX: 'uis',
      MAIL_ATTEMPTS: 8,
      MAIL_BACKOFF_MS: 2000,
    });
  });

  it('reads numbers and URLs from the environment', () => {
    const config = loadConfig(mailEnv, {
      REDIS_URL: 'redis://127.0.0.1:6379',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_ATTEMPTS: '3',
      MAIL_BACKOFF_MS: '50',
    });
    expect(config).toMatchObject({
      MAIL_ATTEMPTS: 3,
      MAIL_BACKOFF_MS: 50,
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
    });
  });

  it('names each bad variable', () => {
    const load = () =>
      loadConfig(mailEnv, {
        SMTP_URL: 'mail.example.com',
        REDIS_URL: 'http://x',
        MAIL_ATTEMPTS: '0',
        QUEUE_PREFIX: 'a:b',
      });
    expect(load).toThrow('SMTP_URL: must be an smtp:// or smtps:// URL');
    expect(load).toThrow('REDIS_URL: must be a redis:// or rediss:// URL');
    expect(load).toThrow('MAIL_ATTEMPTS:');
    expect(load).toThrow('QUEUE_PREFIX:');
  });
});
