import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type MailMessage from 'nodemailer/lib/mailer/mail-message';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPPool from 'nodemailer/lib/smtp-pool';
import { dkimOptions, mailRateWindow, mailSender, senderAddress, type MailConfig } from './mail.config';
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

export interface SendHooks {
  /**
   * Runs when the SMTP server has the whole message except the end of its data; the end (which makes
   * the server take the message) waits until it resolves, and its rejection aborts the send.
   */
  beforeDataEnd?: () => Promise<void>;
}

export interface MailTransport {
  /** `smtp` sends through SMTP_URL; `outbox` writes .eml files and prints the link. */
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail, hooks?: SendHooks): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  /** Where the dev outbox prints its one line per mail (console.log by default). */
  print?: (line: string) => void;
  /**
   * Apply MAIL_RATE_PER_SECOND in the SMTP pool: for the in-process queue, whose process is the only
   * sender. The BullMQ worker leaves it to the queue's limiter, which holds across workers.
   */
  poolRateLimit?: boolean;
}

/** The domain of the sender's address (DEV_MAIL_FROM's is localhost). */
const domainOf = (from: string): string => senderAddress(from)?.split('@')[1] ?? 'localhost';

/**
 * The same request always gets the same Message-ID, so even if a crash makes a retry send again,
 * mail servers and clients can tell the copies are one message. Its domain is the sender's.
 */
export const messageIdFor = (requestId: string, from: string): string =>
  `<${createHash('sha256').update(requestId).digest('hex').slice(0, 32)}@${domainOf(from)}>`;

/** A request id is caller data: keep only what is safe in a file name. */
const fileSafe = (value: string): string => value.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);

type Message = Mail.Options & SendHooks;

const messageOf = (config: MailConfig, mail: OutgoingMail): Message => {
  const from = mailSender(config);
  const dkim = dkimOptions(config);
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: messageIdFor(mail.requestId, from),
    ...(dkim && { dkim }),
  };
};

/** SMTPPool.Options plus the one option its types lack. */
type PoolOptions = SMTPPool.Options & { maxRequeues: number };

type SocketCallback = (err: Error | null, socketOptions: { connection: net.Socket }) => void;

/**
 * Opens a pooled connection's TCP socket with Nagle's algorithm off. nodemailer's own sockets keep it
 * on, so the end of each message, written apart from its body, waited for the relay's delayed ACK
 * (40 ms on Linux): one connection sent a mail every 53 ms to a relay that answers at once, and every
 * 24 ms without it. The socket is handed over while it connects, in the same tick, so nodemailer's
 * handlers see a refused connection or a missing greeting as on a socket of its own (and it still
 * starts TLS itself for smtps://).
 */
function openSocket(options: SMTPPool.Options, callback: SocketCallback): void {
  const socket = net.connect({
    host: options.host ?? 'localhost',
    port: options.port ?? (options.secure ? 465 : 587),
    noDelay: true,
    ...(options.localAddress && { localAddress: options.localAddress }),
  });
  callback(null, { connection: socket });
}

/**
 * The pool's options. nodemailer reads nothing but the URL when given `{ url, ...options }`, so the
 * URL is parsed here and spread last: what the URL says (e.g. ?socketTimeout=60000) still wins.
 */
export function smtpPoolOptions(
  config: Pick<MailConfig, 'SMTP_POOL_CONNECTIONS' | 'SMTP_POOL_MESSAGES' | 'MAIL_RATE_PER_SECOND'> & {
    SMTP_URL: string;
  },
  { poolRateLimit = false }: Pick<MailTransportOptions, 'poolRateLimit'> = {},
): PoolOptions {
  const rate = poolRateLimit ? mailRateWindow(config) : undefined;
  return {
    pool: true,
    // nodemailer checks its rate limit when a connection finishes a mail, not when the first mails
    // start, so more connections than the limit would start more mails than it allows at once.
    maxConnections: Math.min(config.SMTP_POOL_CONNECTIONS, rate?.max ?? Infinity),
    maxMessages: config.SMTP_POOL_MESSAGES,
    // A connection lost mid-send fails the attempt instead of nodemailer sending the mail again on
    // its own: retries go through the queue, which knows whether the server already has the mail.
    maxRequeues: 0,
    // Fail an attempt in seconds rather than minutes: the queue retries with backoff anyway.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    getSocket: openSocket,
    ...(rate && { rateLimit: rate.max, rateDelta: rate.durationMs }),
    ...parseConnectionUrl(config.SMTP_URL),
  };
}

/**
 * Passes a message through but holds its end until `gate` resolves. No chunk is buffered here
 * (readableHighWaterMark 0): each waits until the connection reads it, and the connection reads the
 * message only after the server's 354, so the gate runs once all but the end went to the server.
 */
function holdEnd(input: Readable, gate: () => Promise<void>): Readable {
  const output = new Transform({
    readableHighWaterMark: 0,
    transform: (chunk, _encoding, callback) => callback(null, chunk),
    flush: (callback) => {
      gate().then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  input.once('error', (error) => output.destroy(error));
  return input.pipe(output);
}

/** nodemailer's pool, with the beforeDataEnd hook on each message. */
class GatedSmtpPool extends SMTPPool {
  override send(
    mail: MailMessage<SMTPPool.SentMessageInfo>,
    callback: (err: Error | null, info: SMTPPool.SentMessageInfo) => void,
  ): void {
    const gate = (mail.data as Message).beforeDataEnd;
    // Added here, after nodemailer's own steps (DKIM signing among them), so it wraps the very stream
    // the connection sends.
    if (gate) mail.message.processFunc((input) => holdEnd(input, gate));
    super.send(mail, callback);
  }
}

class SmtpMailTransport implements MailTransport {
  readonly kind = 'smtp';
  private readonly transporter: Transporter;

  constructor(
    private readonly config: MailConfig & { SMTP_URL: string },
    options: MailTransportOptions,
  ) {
    this.transporter = nodemailer.createTransport(new GatedSmtpPool(smtpPoolOptions(config, options)));
  }

  async send(mail: OutgoingMail, hooks: SendHooks = {}): Promise<void> {
    await this.transporter.sendMail({ ...messageOf(this.config, mail), ...hooks });
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
    private readonly config: MailConfig,
    private readonly print: (line: string) => void,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transporter.sendMail(messageOf(this.config, mail));
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('dev outbox: expected a buffered message');
    const dir = this.config.OUTBOX_DIR;
    const stamp = new Date().toISOString().replace(/:/g, '-');
    const file = path.join(dir, `${stamp}-${fileSafe(mail.requestId)}.eml`);
    await mkdir(dir, { recursive: true });
    await writeFile(file, raw);
    const relative = path.relative(process.cwd(), file);
    const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
    this.print(`[dev outbox] ${mail.label} for ${mail.to}: ${mail.link}  (saved ${shown})`);
  }

  close(): void {
    this.transporter.close();
  }
}

/** Pooled SMTP when SMTP_URL is set; otherwise the dev outbox under OUTBOX_DIR. */
export function createMailTransport(config: MailConfig, options: MailTransportOptions = {}): MailTransport {
  const { SMTP_URL } = config;
  if (SMTP_URL) return new SmtpMailTransport({ ...config, SMTP_URL }, options);
  return new OutboxMailTransport(config, options.print ?? ((line) => console.log(line)));
}
