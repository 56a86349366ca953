import { z } from 'zod';

/** BullMQ queue names. */
export const QUEUES = { mail: 'mail' } as const;

/**
 * A mail job. `requestId` is the BullMQ job id: enqueueing the same request twice sends one mail.
 * The mailer renders the text, so the producer sends facts, not markup.
 */
export const MagicLinkMailJob = z.object({
  kind: z.literal('magic-link'),
  requestId: z.string().min(1),
  to: z.email(),
  link: z.url(),
  expiresInMinutes: z.number().int().positive(),
});
export type MagicLinkMailJob = z.infer<typeof MagicLinkMailJob>;

export const MailJob = z.discriminatedUnion('kind', [MagicLinkMailJob]);
export type MailJob = z.infer<typeof MailJob>;
