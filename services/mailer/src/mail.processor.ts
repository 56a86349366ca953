import type { Logger } from '@uis/kit';
import { MailJob } from '@uis/proto';
import { renderMail } from './mail.renderer';
import type { MailTransport } from './mail.transport';
import { MailStats } from './mail.stats';
import type { SentMarkerStore } from './sent-marker.store';

/** The payload is not a mail job: retrying cannot help. The message names fields, never values. */
export class MailJobInvalidError extends Error {
  override name = 'MailJobInvalidError';
}

/** The mail server refused the recipient or the message for good (5xx): retrying cannot help. */
export class MailRejectedError extends Error {
  override name = 'MailRejectedError';

  constructor(
    message: string,
    readonly responseCode: number,
  ) {
    super(message);
  }
}

/** Errors after which a job must fail at once instead of being retried. */
export const isPermanentMailError = (error: unknown): boolean =>
  error instanceof MailJobInvalidError || error instanceof MailRejectedError;

export type MailOutcome = 'sent' | 'already-sent';

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
}

/** What a log line says about a failed attempt: the error, and the SMTP code when there is one. */
export function describeMailError(error: unknown): { err: string; code?: string; responseCode?: number } {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  return {
    err: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' && { code }),
    ...(typeof responseCode === 'number' && { responseCode }),
  };
}

/**
 * A 5xx answer about this mail (nodemailer's EENVELOPE: its sender or recipient; EMESSAGE: its
 * content) is final. Everything else is temporary: 4xx answers, connection errors and timeouts, and
 * also 5xx answers about the session (a refused login, a 554 greeting), which are the deployment's to
 * fix: retrying lets the mails waiting out their backoff go once it is fixed.
 */
function classifySendError(error: unknown): unknown {
  const { code, responseCode, response } = (error ?? {}) as SmtpError;
  const permanent =
    (code === 'EENVELOPE' || code === 'EMESSAGE') &&
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600;
  if (!permanent) return error;
  const answer = typeof response === 'string' ? response : String(responseCode);
  return new MailRejectedError(`the mail server refused the mail: ${answer}`, responseCode);
}

/** proto's MailJob, or MailJobInvalidError naming the bad fields (never their values: a link holds a token). */
export function parseMailJob(payload: unknown): MailJob {
  const parsed = MailJob.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(job)'}: ${issue.message}`);
  throw new MailJobInvalidError(`invalid mail job: ${issues.join('; ')}`);
}

const LABELS: Record<MailJob['kind'], string> = { 'magic-link': 'magic link', invitation: 'invitation' };

/** Validates, renders and sends one mail job, at most once per requestId. */
export class MailProcessor {
  constructor(
    private readonly transport: MailTransport,
    private readonly sent: SentMarkerStore,
    private readonly logger: Logger,
    readonly stats: MailStats = new MailStats(),
  ) {}

  async process(payload: unknown): Promise<MailOutcome> {
    const job = parseMailJob(payload);
    const context = { requestId: job.requestId, to: job.to, kind: job.kind };

    const earlier = await this.sent.get(job.requestId);
    if (earlier === 'sent') {
      this.logger.info(context, 'mail already sent for this request, not sending again');
      this.stats.count('alreadySent');
      return 'already-sent';
    }
    if (earlier === 'handed-over') {
      // An attempt died after the server had the whole message, before its answer: see SentState.
      this.logger.warn(context, 'mail handed over by an earlier attempt, not sending again');
      this.stats.count('alreadySent');
      return 'already-sent';
    }

    let failed = false;
    let handOver: Promise<void> | undefined;
    const beforeDataEnd = () => {
      if (failed) return Promise.resolve();
      handOver = this.sent.handedOver(job.requestId);
      return handOver;
    };
    try {
      await this.transport.send(
        { ...renderMail(job), requestId: job.requestId, to: job.to, label: LABELS[job.kind], link: job.link },
        { beforeDataEnd },
      );
    } catch (error) {
      failed = true;
      // The server did not take it (or did not say so to a live sender): the next attempt must send.
      if (handOver) await this.forgetHandOver(job.requestId, handOver, context);
      throw classifySendError(error);
    }
    await this.sent.mark(job.requestId);
    this.logger.info(
      { ...context, transport: this.transport.kind, totals: this.stats.count('sent') },
      'mail sent',
    );
    return 'sent';
  }

  close(): void {
    this.transport.close();
  }

  private async forgetHandOver(requestId: string, handOver: Promise<void>, context: object): Promise<void> {
    try {
      await handOver.catch(() => undefined);
      await this.sent.forget(requestId);
    } catch (error) {
      // Rare (Redis failing between two calls), and then a retry would skip the mail: say so.
      this.logger.error(
        { ...context, err: (error as Error).message },
        'could not clear the hand-over marker: a retry will not send this mail',
      );
    }
  }
}
