import { allowedOriginsEnv, allowedOriginsOf, envVars, liveWriteLimitVar, serviceEnv } from '@uis/kit';
import { z } from 'zod';

/** The socket.io adapters realtime can share rooms through when REDIS_URL is set (README: the choice). */
export const REDIS_ADAPTERS = ['streams', 'pubsub'] as const;
export type RedisAdapterKind = (typeof REDIS_ADAPTERS)[number];

/** Realtime's environment (every variable is in docs/configuration.md). */
export const realtimeEnv = serviceEnv
  .merge(allowedOriginsEnv)
  .extend({
    /** Redis for the socket.io adapter and the live room state; without it, one process holds both. */
    REDIS_URL: envVars.redisUrl(),
    REDIS_ADAPTER: z.enum(REDIS_ADAPTERS, { error: 'must be streams or pubsub' }).default('streams'),
    /** Prefix of every Redis key and channel realtime uses, so deployments (and tests) can share a Redis. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'must be 1 to 64 letters, digits or _ : . -')
      .default('uis:realtime'),
    /** How long a session access answer from studies is reused (every event is checked). */
    ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /** Sockets one user may hold open on one replica (tabs, windows, devices). */
    SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
    /** Messages and clicks one user may store in one session per 10 s (WriteLimiter; records' too). */
    LIVE_WRITE_LIMIT: liveWriteLimitVar(),
  })
  .transform((config) => ({ ...config, allowedOrigins: allowedOriginsOf(config) }));
export type RealtimeConfig = z.output<typeof realtimeEnv>;

export const REALTIME_CONFIG = Symbol('REALTIME_CONFIG');
