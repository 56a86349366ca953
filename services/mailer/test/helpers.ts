import { randomBytes } from 'node:crypto';
import { createLogger, type Logger } from '@uis/kit';
import { TEST_REDIS_URL, randomSuffix, waitFor } from '@uis/kit/testing';
import type { MagicLinkMailJob } from '@uis/proto';
import { Redis } from 'ioredis';
import { mailEnv, type MailConfig } from '../src/mail.config';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A mail config as the service would parse it, with a unique key prefix per test file. */
export function testMailConfig(env: Record<string, string | undefined> = {}): MailConfig {
  return mailEnv.parse({ QUEUE_PREFIX: `mailtest-${randomSuffix()}`, ...env });
}

export const uniquePrefix = () => `mailtest-${randomSuffix()}`;

export { TEST_REDIS_URL, waitFor };

/** A magic-link job with a unique request id and a link that holds a random token. */
export function magicLinkJob(overrides: Partial<MagicLinkMailJob> = {}): MagicLinkMailJob {
  const to = overrides.to ?? `user-${randomSuffix()}@example.com`;
  const token = randomBytes(16).toString('hex');
  return {
    kind: 'magic-link',
    requestId: `req-${randomSuffix()}`,
    to,
    link: `http://localhost:8443/authcallback?email=${encodeURIComponent(to)}&token=${token}`,
    expiresInMinutes: 15,
    ...overrides,
  };
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

export interface CapturedLogger {
  logger: Logger;
  lines: string[];
  /** Parsed log records. */
  records(): Record<string, unknown>[];
}

/** A real pino logger that writes into memory, so tests can read what would be logged. */
export function captureLogger(level = 'debug'): CapturedLogger {
  const lines: string[] = [];
  const destination = { write: (chunk: string) => lines.push(chunk) } as unknown as NodeJS.WritableStream;
  const logger = createLogger({ service: 'mailer', level, destination });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** Deletes every key under a test's prefix (BullMQ's and the sent markers). */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
