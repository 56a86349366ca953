import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger';

const REPEAT_LOG_AFTER_MS = 10_000;

/**
 * A Redis connection that waits through Redis restarts instead of failing calls at once
 * (BullMQ needs `maxRetriesPerRequest: null`).
 */
export function connectRedis(url: string, name: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    ...options,
  });
}

/**
 * A Redis connection (connectRedis, or with `options`) whose errors are logged, once per outage
 * rather than once per reconnect attempt, instead of ioredis's "unhandled error event".
 */
export function openRedis(url: string, name: string, logger: Logger, options: RedisOptions = {}): Redis {
  const redis = connectRedis(url, name, options);
  let failingSince: number | null = null;
  let loggedAt = 0;
  redis.on('error', (error: Error) => {
    const now = Date.now();
    failingSince ??= now;
    if (now - loggedAt < REPEAT_LOG_AFTER_MS) return;
    loggedAt = now;
    logger.warn({ connection: name, err: error.message }, 'Redis unavailable; retrying');
  });
  redis.on('ready', () => {
    if (failingSince === null) return;
    logger.info({ connection: name, downMs: Date.now() - failingSince }, 'Redis is back');
    failingSince = null;
    loggedAt = 0;
  });
  return redis;
}

/** Closes a connection politely, or at once when Redis cannot answer (a QUIT would wait for it). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}
