import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@uis/kit';
import { testSecrets } from '@uis/kit/testing';
import {
  DEV_MAIL_FROM,
  isLocalUrl,
  mailEnv,
  mailRateWindow,
  mailSender,
  mailWorkerConcurrency,
} from './mail.config';
import { mailerEnv } from './mailer.service-definition';

/** The mailer service's whole environment, with the rules between mail variables. */
const loadMailer = (env: Record<string, string>) => loadConfig(mailerEnv, { ...testSecrets(), ...env });

const rsaKey = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;

describe('mailEnv', () => {
  it('has defaults for everything: no Redis, no SMTP, the dev outbox under .data/, a pool of 5 x 100', () => {
    const config = loadConfig(mailEnv, {});
    expect(config).toEqual({
      OUTBOX_DIR: path.resolve(process.cwd(), '.data/outbox'),
      QUEUE_PREFIX: 'uis',
      MAIL_ATTEMPTS: 8,
      MAIL_BACKOFF_MS: 2000,
      SMTP_POOL_CONNECTIONS: 5,
      SMTP_POOL_MESSAGES: 100,
    });
    expect(mailSender(config)).toBe(DEV_MAIL_FROM);
    expect(mailRateWindow(config)).toBeUndefined();
    expect(mailWorkerConcurrency(config)).toBe(10);
  });

  it('reads numbers and URLs from the environment, and takes empty values for unset', () => {
    const config = loadConfig(mailEnv, {
      REDIS_URL: 'redis://127.0.0.1:6379',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_ATTEMPTS: '3',
      MAIL_BACKOFF_MS: '50',
      SMTP_POOL_CONNECTIONS: '2',
      SMTP_POOL_MESSAGES: '10',
      MAIL_RATE_PER_SECOND: '14',
      MAIL_FROM: ' ',
      DKIM_DOMAIN: '',
    });
    expect(config).toMatchObject({
      MAIL_ATTEMPTS: 3,
      MAIL_BACKOFF_MS: 50,
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      SMTP_POOL_CONNECTIONS: 2,
      SMTP_POOL_MESSAGES: 10,
      MAIL_RATE_PER_SECOND: 14,
    });
    expect(config.MAIL_FROM).toBeUndefined();
    expect(config.DKIM_DOMAIN).toBeUndefined();
    expect(mailWorkerConcurrency(config)).toBe(4);
  });

  it('names each bad variable', () => {
    const load = () =>
      loadConfig(mailEnv, {
        SMTP_URL: 'mail.example.com',
        REDIS_URL: 'http://x',
        MAIL_ATTEMPTS: '0',
        QUEUE_PREFIX: 'a:b',
        SMTP_POOL_CONNECTIONS: '0',
        SMTP_POOL_MESSAGES: 'many',
        MAIL_RATE_PER_SECOND: '-1',
        MAIL_FROM: 'no-reply',
        DKIM_DOMAIN: 'not a domain',
        DKIM_SELECTOR: 'a b',
      });
    expect(load).toThrow('SMTP_URL: must be an smtp:// or smtps:// URL');
    expect(load).toThrow('REDIS_URL: must be a redis:// or rediss:// URL');
    expect(load).toThrow('MAIL_ATTEMPTS:');
    expect(load).toThrow('QUEUE_PREFIX:');
    expect(load).toThrow('SMTP_POOL_CONNECTIONS:');
    expect(load).toThrow('SMTP_POOL_MESSAGES:');
    expect(load).toThrow('MAIL_RATE_PER_SECOND:');
    expect(load).toThrow('MAIL_FROM: must be one address');
    expect(load).toThrow('DKIM_DOMAIN: must be a domain');
    expect(load).toThrow('DKIM_SELECTOR: must be a DNS label');
  });

  it('accepts a sender as a bare address or a name and address', () => {
    expect(loadConfig(mailEnv, { MAIL_FROM: 'no-reply@example.org' }).MAIL_FROM).toBe('no-reply@example.org');
    const named = '"UIS, the lab" <no-reply@mail.example.org>';
    expect(mailSender(loadConfig(mailEnv, { MAIL_FROM: named }))).toBe(named);
    expect(() => loadConfig(mailEnv, { MAIL_FROM: 'a@example.org, b@example.org' })).toThrow('MAIL_FROM:');
  });
});

describe('MAIL_FROM is required for a public deployment', () => {
  const smtp = { SMTP_URL: 'smtp://relay.example.org:587' };

  it('is refused when PUBLIC_URL is not local and mail goes to a relay, saying why', () => {
    const load = () => loadMailer({ ...smtp, PUBLIC_URL: 'https://uis.example.org' });
    expect(load).toThrow(
      /MAIL_FROM: is required when PUBLIC_URL \(https:\/\/uis\.example\.org\) is not a local address/,
    );
    expect(load).toThrow('refuse or file as spam');
    expect(load).toThrow('MAIL_FROM="User Interaction Simulator <no-reply@uis.example.org>"');
    expect(
      loadMailer({ ...smtp, PUBLIC_URL: 'https://uis.example.org', MAIL_FROM: 'a@example.org' }),
    ).toMatchObject({ MAIL_FROM: 'a@example.org' });
  });

  it('defaults to no-reply@localhost for a local PUBLIC_URL, or without a relay (the dev outbox)', () => {
    for (const PUBLIC_URL of [
      'http://localhost:8443',
      'http://127.0.0.1:3000/app',
      'http://[::1]:8443',
      'HTTP://LOCALHOST',
    ]) {
      expect(isLocalUrl(PUBLIC_URL)).toBe(true);
      expect(mailSender(loadMailer({ ...smtp, PUBLIC_URL }))).toBe(DEV_MAIL_FROM);
    }
    expect(isLocalUrl('https://localhost.example.org')).toBe(false);
    expect(isLocalUrl('http://10.0.0.5:8443')).toBe(false);
    expect(mailSender(loadMailer({ PUBLIC_URL: 'https://uis.example.org' }))).toBe(DEV_MAIL_FROM);
  });
});

describe('DKIM settings', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'uis-dkim-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the key as PEM text, as PEM with \\n escapes, or as a file path', () => {
    const pem = rsaKey();
    const file = path.join(dir, 'dkim.pem');
    writeFileSync(file, pem);
    const base = { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 'mail2025' };
    for (const DKIM_PRIVATE_KEY of [pem, pem.replace(/\n/g, '\\n'), file]) {
      expect(loadMailer({ ...base, DKIM_PRIVATE_KEY })).toMatchObject({ ...base, DKIM_PRIVATE_KEY: pem });
    }
  });

  it('needs all three or none', () => {
    const load = () => loadMailer({ DKIM_DOMAIN: 'example.org' });
    expect(load).toThrow('DKIM_SELECTOR: is required with DKIM_DOMAIN (DKIM needs all three, or none)');
    expect(load).toThrow('DKIM_PRIVATE_KEY: is required with DKIM_DOMAIN');
    expect(loadMailer({}).DKIM_PRIVATE_KEY).toBeUndefined();
  });

  it('refuses a key it cannot read or use, without printing it', () => {
    const base = { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1' };
    const missing = path.join(dir, 'missing.pem');
    expect(() => loadMailer({ ...base, DKIM_PRIVATE_KEY: missing })).toThrow(
      'DKIM_PRIVATE_KEY: is neither PEM text nor a readable file (ENOENT)',
    );
    const broken = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----';
    const load = () => loadMailer({ ...base, DKIM_PRIVATE_KEY: broken });
    expect(load).toThrow('DKIM_PRIVATE_KEY: is not an RSA private key in PEM form');
    expect(load).not.toThrow('c2VjcmV0');
    const ed25519 = generateKeyPairSync('ed25519').privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    expect(() => loadMailer({ ...base, DKIM_PRIVATE_KEY: ed25519 })).toThrow('is not an RSA private key');
  });
});

describe('mailRateWindow', () => {
  it('is whole mails per second, or one mail per interval for fractions', () => {
    expect(mailRateWindow({ MAIL_RATE_PER_SECOND: 14 })).toEqual({ max: 14, durationMs: 1000 });
    expect(mailRateWindow({ MAIL_RATE_PER_SECOND: 0.5 })).toEqual({ max: 1, durationMs: 2000 });
    expect(mailRateWindow({ MAIL_RATE_PER_SECOND: 2.5 })).toEqual({ max: 1, durationMs: 400 });
  });
});
