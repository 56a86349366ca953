import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from './mail.config';
import type { RenderedMail } from './mail.renderer';

/** One mail ready to go: rendered words plus what the envelope and the dev outbox need. */
export interface OutgoingMail extends RenderedMail {
  requestId: string;
  to: string;
  /** What the mail is, for the dev outbox's console line ("magic link"). */
  label: string;
  /** The link the mail carries; the dev outbox prints it so a newcomer can sign in without a mail server. */
  link: string;
}

export interface MailTransport {
  /** `smtp` sends through SMTP_URL; `outbox` writes .eml files and prints the link. */
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  /** Where the dev outbox prints its one line per mail (console.log by default). */
  print?: (line: string) => void;
}

const domainOf = (from: string): string => /@([^\s>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

/**
 * The same request always gets the same Message-ID, so even if a crash makes a retry send again,
 * mail servers and clients can tell the copies are one message.
 */
export const messageIdFor = (requestId: string, from: string): string =>
  `<${createHash('sha256').update(requestId).digest('hex').slice(0, 32)}@${domainOf(from)}>`;

/** A request id is caller data: keep only what is safe in a file name. */
const fileSafe = (value: string): string => value.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);

const messageOf = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: messageIdFor(mail.requestId, from),
});

class SmtpMailTransport implements MailTransport {
  readonly kind = 'smtp';
  private readonly transporter: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // Fail an attempt in seconds rather than minutes: the queue retries with backoff anyway.
    // Parameters in the URL (e.g. ?socketTimeout=60000) still win over these.
    this.transporter = nodemailer.createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail(messageOf(this.from, mail));
  }

  close(): void {
    this.transporter.close();
  }
}

class OutboxMailTransport implements MailTransport {
  readonly kind = 'outbox';
  private readonly transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  constructor(
    private readonly from: string,
    private readonly dir: string,
    private readonly print: (line: string) => void,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transporter.sendMail(messageOf(this.from, mail));
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('dev outbox: expected a buffered message');
    const stamp = new Date().toISOString().replace(/:/g, '-');
    const file = path.join(this.dir, `${stamp}-${fileSafe(mail.requestId)}.eml`);
    await mkdir(this.dir, { recursive: true });
    await writeFile(file, raw);
    const relative = path.relative(process.cwd(), file);
    const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
    this.print(`[dev outbox] ${mail.label} for ${mail.to}: ${mail.link}  (saved ${shown})`);
  }

  close(): void {
    this.transporter.close();
  }
}

/** SMTP when SMTP_URL is set; otherwise the dev outbox under OUTBOX_DIR. */
export function createMailTransport(
  config: Pick<MailConfig, 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR'>,
  options: MailTransportOptions = {},
): MailTransport {
  if (config.SMTP_URL) return new SmtpMailTransport(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxMailTransport(
    config.MAIL_FROM,
    config.OUTBOX_DIR,
    options.print ?? ((line) => console.log(line)),
  );
}
