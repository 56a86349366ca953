import { SERVICES, type ServiceName } from '@uis/proto';
import { z } from 'zod';

/** Thrown when the environment does not satisfy a service's schema; the message names every variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment with a service's schema, or throws ConfigError naming each bad variable. */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration, fix these environment variables:\n${lines.join('\n')}`);
}

const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//.test(value);
const isRedisUrl = (value: string) => /^rediss?:\/\//.test(value);

/** Building blocks for service env schemas. Every variable has a README entry. */
export const envVars = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  secret: () =>
    z
      .string({ error: 'is required (at least 32 random characters)' })
      .min(32, 'must be at least 32 characters'),
  databaseUrl: () =>
    z
      .string({ error: 'is required (postgres://user:password@host:5432/database)' })
      .refine(isPostgresUrl, 'must be a postgres:// URL'),
  redisUrl: () => z.string().refine(isRedisUrl, 'must be a redis:// or rediss:// URL').optional(),
  url: (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback)),
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
};

/** Variables every service reads. */
export const commonEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  PUBLIC_URL: envVars.url('http://localhost:8443'),
  /**
   * Express "trust proxy": the proxies whose X-Forwarded-For is believed (the stack's nginx, an
   * ingress: `loopback`, addresses, subnets). None by default, as in `npm start`, where nothing sits
   * in front: otherwise any caller could choose the address its rate limits are keyed on.
   */
  TRUST_PROXY: z.string().default('false'),
});
export type CommonConfig = z.output<typeof commonEnv>;

/** `<NAME>_URL` for each service, defaulting to the port it listens on alone. */
export const serviceUrlsEnv = z.object(
  Object.fromEntries(
    Object.entries(SERVICES).map(([name, { port }]) => [
      `${name.toUpperCase()}_URL`,
      envVars.url(`http://127.0.0.1:${port}`),
    ]),
  ) as Record<`${Uppercase<ServiceName>}_URL`, z.ZodDefault<z.ZodURL>>,
);
export type ServiceUrlsConfig = z.output<typeof serviceUrlsEnv>;

export const serviceUrl = (config: ServiceUrlsConfig, service: ServiceName): string =>
  config[`${service.toUpperCase() as Uppercase<ServiceName>}_URL`];
