import { Redis } from 'ioredis';

/**
 * A Redis connection that waits through Redis restarts instead of failing calls at once
 * (BullMQ needs `maxRetriesPerRequest: null`).
 */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: null, enableReadyCheck: true });
}
