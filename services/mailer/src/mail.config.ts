import path from 'node:path';
import { envVars } from '@uis/kit';
import { z } from 'zod';

const isSmtpUrl = (value: string) => /^smtps?:\/\//.test(value) && URL.canParse(value);

/**
 * The mail variables, on their own so a producer (auth) can extend its env with `mailEnv.shape`
 * and build the same queue the mailer service consumes.
 */
export const mailEnv = z.object({
  /** BullMQ on this Redis; without it producers run the in-process queue. */
  REDIS_URL: envVars.redisUrl(),
  /** smtp://user:pass@host:587 or smtps://...:465; without it mail goes to the dev outbox. */
  SMTP_URL: z.string().refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(1).default('User Interaction Simulator <no-reply@localhost>'),
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
});
export type MailConfig = z.output<typeof mailEnv>;
