import type { Logger } from '@uis/kit';
import { MailJob } from '@uis/proto';
import { renderMail } from './mail.renderer';
import type { MailTransport } from './mail.transport';
import type { SentMarkerStore } from './sent-marker.store';

/** The payload is not a mail job: retrying cannot help. The message names fields, never values. */
export class MailJobInvalidError extends Error {
  override name = 'MailJobInvalidError';
}

/** The mail server refused the recipient or the message for good (5xx): retrying cannot help. */
export class MailRejectedError extends Error {
  override name = 'MailRejectedError';
}

/** Errors after which a job must fail at once instead of being retried. */
export const isPermanentMailError = (error: unknown): boolean =>
  error instanceof MailJobInvalidError || error instanceof MailRejectedError;

export type MailOutcome = 'sent' | 'already-sent';

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
}

/** nodemailer's EENVELOPE (recipient refused) and EMESSAGE (message refused) with a 5xx code are final. */
function classifySendError(error: unknown): unknown {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  const permanent =
    (code === 'EENVELOPE' || code === 'EMESSAGE') &&
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600;
  return permanent ? new MailRejectedError(`the mail server refused the mail (${responseCode})`) : error;
}

/** proto's MailJob, or MailJobInvalidError naming the bad fields (never their values: a link holds a token). */
export function parseMailJob(payload: unknown): MailJob {
  const parsed = MailJob.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(job)'}: ${issue.message}`);
  throw new MailJobInvalidError(`invalid mail job: ${issues.join('; ')}`);
}

const LABELS: Record<MailJob['kind'], string> = { 'magic-link': 'magic link' };

/** Validates, renders and sends one mail job, at most once per requestId. */
export class MailProcessor {
  constructor(
    private readonly transport: MailTransport,
    private readonly sent: SentMarkerStore,
    private readonly logger: Logger,
  ) {}

  async process(payload: unknown): Promise<MailOutcome> {
    const job = parseMailJob(payload);
    const context = { requestId: job.requestId, to: job.to, kind: job.kind };

    if (await this.sent.has(job.requestId)) {
      this.logger.info(context, 'mail already sent for this request, not sending again');
      return 'already-sent';
    }
    try {
      await this.transport.send({
        ...renderMail(job),
        requestId: job.requestId,
        to: job.to,
        label: LABELS[job.kind],
        link: job.link,
      });
    } catch (error) {
      throw classifySendError(error);
    }
    await this.sent.mark(job.requestId);
    this.logger.info({ ...context, transport: this.transport.kind }, 'mail sent');
    return 'sent';
  }

  close(): void {
    this.transport.close();
  }
}
