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

/** A researcher put the address in a session's scope: the link signs in (or up) and opens the session. */
export const InvitationMailJob = z.object({
  kind: z.literal('invitation'),
  requestId: z.string().min(1),
  to: z.email(),
  link: z.url(),
  sessionTitle: z.string(),
  researcherName: z.string(),
  expiresInDays: z.number().int().positive(),
});
export type InvitationMailJob = z.infer<typeof InvitationMailJob>;

export const MailJob = z.discriminatedUnion('kind', [MagicLinkMailJob, InvitationMailJob]);
export type MailJob = z.infer<typeof MailJob>;
