import { databaseEnv, serviceEnv } from '@uis/kit';
import { checkMailEnv, mailEnv } from '@uis/mailer';
import { MAGIC_LINK_TTL_MINUTES, REFRESH_TOKEN_COOKIE_DAYS } from '@uis/proto';
import { z } from 'zod';
import { oidcProvidersOf } from './oidc/oidc-providers';

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Auth's environment (every variable is in docs/configuration.md). */
// Auth sends the mail itself without Redis, so the mailer's boot checks (MAIL_FROM, DKIM) apply here too.
export const authEnv = serviceEnv
  .merge(mailEnv)
  .merge(databaseEnv)
  .extend({
    /** Who may choose "researcher" at sign-up: addresses, @domains or `*`. */
    RESEARCHER_EMAILS: z.string().default(''),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().default(REFRESH_TOKEN_COOKIE_DAYS),
    MAGIC_LINK_TTL_MINUTES: count(MAGIC_LINK_TTL_MINUTES),
    /** Links one inbox may be sent per SIGN_IN_LIMIT_WINDOW_SECONDS. */
    SIGN_IN_LIMIT_PER_EMAIL: count(5),
    SIGN_IN_LIMIT_WINDOW_SECONDS: count(900),
    /** Links one client address may ask for: a class behind one campus address at once, per minute... */
    SIGN_IN_LIMIT_PER_ADDRESS_PER_MINUTE: count(600),
    /** ...and per hour, past which it is a spray of inboxes rather than a class. */
    SIGN_IN_LIMIT_PER_ADDRESS_PER_HOUR: count(2000),
    /**
     * OpenID Connect providers by id (each with OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET, _LABEL
     * and _EMAIL_DOMAINS).
     */
    OIDC_PROVIDERS: z.string().default(''),
    GOOGLE_CLIENT_ID: z.string().default(''),
    GOOGLE_CLIENT_SECRET: z.string().default(''),
    /** The domains Google is trusted for (empty: gmail.com and googlemail.com). */
    GOOGLE_EMAIL_DOMAINS: z.string().default(''),
  })
  // The providers' own variables have names made from their ids: kept through parsing, then read.
  .loose()
  .superRefine(checkMailEnv)
  .transform((env, ctx) => ({ ...env, oidcProviders: oidcProvidersOf(env, ctx) }));
export type AuthConfig = z.output<typeof authEnv>;

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
