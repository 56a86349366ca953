import { envVars, serviceEnv } from '@uis/kit';
import { z } from 'zod';

/** The socket.io adapters realtime can share rooms through when REDIS_URL is set (README: the choice). */
export const REDIS_ADAPTERS = ['streams', 'pubsub'] as const;
export type RedisAdapterKind = (typeof REDIS_ADAPTERS)[number];

/** The Vite dev server: `npm run dev` serves the web app there and proxies /socket.io/ to realtime. */
export const VITE_DEV_ORIGIN = 'http://localhost:5173';

const originOf = (value: string): string | null => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '') ? url.origin : null;
  } catch {
    return null;
  }
};

/** localhost and 127.0.0.1 are the same machine: a default that names one allows the other. */
function withLoopbackTwin(origin: string): string[] {
  const url = new URL(origin);
  const twin = { localhost: '127.0.0.1', '127.0.0.1': 'localhost' }[url.hostname];
  if (!twin) return [origin];
  url.hostname = twin;
  return [origin, url.origin];
}

/** `ALLOWED_ORIGINS`: a comma-separated list of origins (scheme://host[:port], no path). */
const originList = z
  .string()
  .transform((value, ctx) => {
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const origins: string[] = [];
    for (const entry of entries) {
      const origin = originOf(entry);
      if (origin) origins.push(origin);
      else ctx.addIssue({ code: 'custom', message: `'${entry}' is not an origin like https://host:port` });
    }
    if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one origin' });
    return origins;
  })
  .optional();

/** Realtime's environment (every variable is in the README's configuration table). */
export const realtimeEnv = serviceEnv
  .extend({
    /** Redis for the socket.io adapter and the live room state; without it, one process holds both. */
    REDIS_URL: envVars.redisUrl(),
    REDIS_ADAPTER: z.enum(REDIS_ADAPTERS, { error: 'must be streams or pubsub' }).default('streams'),
    /** Prefix of every Redis key and channel realtime uses, so deployments (and tests) can share a Redis. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'must be 1 to 64 letters, digits or _ : . -')
      .default('uis:realtime'),
    /** Browser origins allowed to connect; default: PUBLIC_URL's origin and the Vite dev server. */
    ALLOWED_ORIGINS: originList,
    /** How long a session access answer from studies is reused (every event is checked). */
    ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  })
  .transform((config) => ({
    ...config,
    allowedOrigins:
      config.ALLOWED_ORIGINS ??
      [new URL(config.PUBLIC_URL).origin, VITE_DEV_ORIGIN].flatMap(withLoopbackTwin),
  }));
export type RealtimeConfig = z.output<typeof realtimeEnv>;

export const REALTIME_CONFIG = Symbol('REALTIME_CONFIG');
