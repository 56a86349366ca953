import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { envVars } from '@uis/kit';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';

const isSmtpUrl = (value: string) => /^smtps?:\/\//.test(value) && URL.canParse(value);

/** The sender when MAIL_FROM is unset, which only a local PUBLIC_URL (or the dev outbox) allows. */
export const DEV_MAIL_FROM = 'User Interaction Simulator <no-reply@localhost>';

/** The one address of a From value (`Name <a@b>` or `a@b`), or undefined if it holds none or several. */
export function senderAddress(from: string): string | undefined {
  const parsed = addressparser(from, { flatten: true });
  const address = parsed.length === 1 ? parsed[0]?.address : undefined;
  return address && /^[^@\s]+@[^@\s]+$/.test(address) ? address : undefined;
}

/** An optional variable where an empty value (`MAIL_FROM=` in a compose file) means unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/**
 * DKIM_PRIVATE_KEY: PEM text (`\n` escapes allowed, as env files often have them) or the path of a PEM
 * file; read and parsed at boot so a bad key stops the service instead of failing every mail. The
 * messages never repeat the value: it may be the key itself.
 */
const dkimPrivateKey = z.string().transform((value, ctx) => {
  let pem = value.replace(/\\n/g, '\n');
  if (!PEM.test(pem)) {
    try {
      pem = readFileSync(path.resolve(value), 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      ctx.addIssue({ code: 'custom', message: `is neither PEM text nor a readable file (${reason})` });
      return z.NEVER;
    }
  }
  let type: string | undefined;
  try {
    type = createPrivateKey(pem).asymmetricKeyType;
  } catch {
    // Left undefined: reported below.
  }
  // nodemailer signs with rsa-sha256 only.
  if (type !== 'rsa') {
    ctx.addIssue({ code: 'custom', message: 'is not an RSA private key in PEM form' });
    return z.NEVER;
  }
  return pem;
});

/**
 * The mail variables, on their own so a producer (auth) can extend its env with `mailEnv.shape`
 * and build the same queue the mailer service consumes. The rules between variables are in
 * `checkMailEnv`, which a schema applies with `.superRefine(checkMailEnv)`.
 */
export const mailEnv = z.object({
  /** BullMQ on this Redis; without it producers run the in-process queue. */
  REDIS_URL: envVars.redisUrl(),
  /** smtp://user:pass@host:587 or smtps://...:465; without it mail goes to the dev outbox. */
  SMTP_URL: z.string().refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL').optional(),
  /** The From header; its domain is the Message-ID's. Unset: DEV_MAIL_FROM, only where checkMailEnv allows. */
  MAIL_FROM: optional(
    z
      .string()
      .refine(
        (value) => senderAddress(value) !== undefined,
        'must be one address, e.g. no-reply@example.org or "Name <no-reply@example.org>"',
      ),
  ),
  /** Where the dev outbox writes its .eml files. */
  OUTBOX_DIR: z
    .string()
    .min(1)
    .default(() => path.resolve(process.cwd(), '.data/outbox')),
  /** Namespaces the BullMQ keys and the sent markers (tests use a unique one). */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, dots, dashes or underscores')
    .default('uis'),
  MAIL_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  /** First retry delay; each further retry waits twice as long. */
  MAIL_BACKOFF_MS: z.coerce.number().int().min(0).default(2000),
  /** SMTP connections kept open to the relay and shared by all mails of this process. */
  SMTP_POOL_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(5),
  /** Mails sent over one connection before it is replaced by a fresh one. */
  SMTP_POOL_MESSAGES: z.coerce.number().int().min(1).default(100),
  /** The relay's cap (mails per second, fractions allowed); unset means no cap. */
  MAIL_RATE_PER_SECOND: optional(z.coerce.number().positive()),
  /** DKIM signing: all three or none (checkMailEnv). */
  DKIM_DOMAIN: optional(
    z
      .string()
      .regex(
        /^(?=.{1,253}$)([A-Za-z0-9-]{1,63}\.)+[A-Za-z0-9-]{2,63}$/,
        'must be a domain, e.g. example.org',
      ),
  ),
  DKIM_SELECTOR: optional(
    z.string().regex(/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/, 'must be a DNS label, e.g. mail2025'),
  ),
  DKIM_PRIVATE_KEY: optional(dkimPrivateKey),
});
export type MailConfig = z.output<typeof mailEnv>;

/** Hosts whose PUBLIC_URL means "this machine": mail from no-reply@localhost is fine there. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLocalUrl = (url: string): boolean =>
  URL.canParse(url) && LOCAL_HOSTS.has(new URL(url).hostname.toLowerCase());

const DKIM_VARIABLES = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const;

/**
 * The rules between variables, for `.superRefine`: a deployment that mails real people (SMTP_URL set
 * and PUBLIC_URL not local) must name its sender, since relays refuse or file as spam mail from
 * no-reply@localhost; and DKIM is configured whole or not at all.
 */
export function checkMailEnv(config: MailConfig & { PUBLIC_URL?: string }, ctx: z.RefinementCtx): void {
  const { PUBLIC_URL } = config;
  if (config.SMTP_URL && config.MAIL_FROM === undefined && PUBLIC_URL && !isLocalUrl(PUBLIC_URL)) {
    ctx.addIssue({
      code: 'custom',
      path: ['MAIL_FROM'],
      message:
        `is required when PUBLIC_URL (${PUBLIC_URL}) is not a local address and SMTP_URL is set: mail relays ` +
        `refuse or file as spam mail from ${DEV_MAIL_FROM}. Set an address of your domain, e.g. ` +
        `MAIL_FROM="User Interaction Simulator <no-reply@${new URL(PUBLIC_URL).hostname}>"`,
    });
  }
  const missing = DKIM_VARIABLES.filter((name) => config[name] === undefined);
  if (missing.length > 0 && missing.length < DKIM_VARIABLES.length) {
    for (const name of missing) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `is required with ${DKIM_VARIABLES.filter((other) => !missing.includes(other)).join(' and ')} (DKIM needs all three, or none)`,
      });
    }
  }
}

/** The From header this config sends with. */
export const mailSender = (config: Pick<MailConfig, 'MAIL_FROM'>): string =>
  config.MAIL_FROM ?? DEV_MAIL_FROM;

/** nodemailer's DKIM options, when all three variables are set. */
export function dkimOptions(
  config: Pick<MailConfig, 'DKIM_DOMAIN' | 'DKIM_SELECTOR' | 'DKIM_PRIVATE_KEY'>,
): { domainName: string; keySelector: string; privateKey: string } | undefined {
  const { DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY } = config;
  if (!DKIM_DOMAIN || !DKIM_SELECTOR || !DKIM_PRIVATE_KEY) return undefined;
  return { domainName: DKIM_DOMAIN, keySelector: DKIM_SELECTOR, privateKey: DKIM_PRIVATE_KEY };
}

/**
 * MAIL_RATE_PER_SECOND as "at most `max` mails per `durationMs`": whole rates per second, and
 * fractions as one mail per interval (0.5 -> one every 2 s), since both limiters count whole mails.
 */
export function mailRateWindow(
  config: Pick<MailConfig, 'MAIL_RATE_PER_SECOND'>,
): { max: number; durationMs: number } | undefined {
  const rate = config.MAIL_RATE_PER_SECOND;
  if (rate === undefined) return undefined;
  return Number.isInteger(rate)
    ? { max: rate, durationMs: 1000 }
    : { max: 1, durationMs: Math.ceil(1000 / rate) };
}

/**
 * Jobs one worker runs at once: two per pooled connection, so each connection has its next mail ready
 * when it finishes one (a job waiting for a connection only holds a slot in nodemailer's queue).
 */
export const mailWorkerConcurrency = (config: Pick<MailConfig, 'SMTP_POOL_CONNECTIONS'>): number =>
  2 * config.SMTP_POOL_CONNECTIONS;
