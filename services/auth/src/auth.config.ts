import { envVars, serviceEnv } from '@uis/kit';
import { mailEnv } from '@uis/mailer';
import { MAGIC_LINK_TTL_MINUTES, REFRESH_TOKEN_COOKIE_DAYS } from '@uis/proto';
import { z } from 'zod';

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Auth's environment (every variable is in the README's configuration table). */
export const authEnv = serviceEnv.merge(mailEnv).extend({
  DATABASE_URL: envVars.databaseUrl(),
  /** Who may choose "researcher" at sign-up: addresses, @domains or `*`. */
  RESEARCHER_EMAILS: z.string().default(''),
  /** `researchers`: a magic-link token proves the e-mail of researcher sign-ups; `always`: of every sign-up. */
  SIGNUP_EMAIL_PROOF: z.enum(['researchers', 'always']).default('researchers'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().default(REFRESH_TOKEN_COOKIE_DAYS),
  MAGIC_LINK_TTL_MINUTES: count(MAGIC_LINK_TTL_MINUTES),
  SIGN_IN_LIMIT_PER_EMAIL: count(5),
  SIGN_IN_LIMIT_PER_ADDRESS: count(30),
  SIGN_IN_LIMIT_WINDOW_SECONDS: count(900),
});
export type AuthConfig = z.output<typeof authEnv>;

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
