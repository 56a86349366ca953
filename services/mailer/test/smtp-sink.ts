import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSinkOptions {
  /** TLS from the first byte (smtps://, smtp-server's own self-signed certificate). */
  secure?: boolean;
  /** Listen on this port (e.g. one a sender already tried while nothing listened); any free one by default. */
  port?: number;
  /** Wait this long before the 220 greeting of each connection, like a relay that is slow to start a session. */
  greetingDelayMs?: number;
  /** Wait this long before answering each message, like a relay that takes time to queue it. */
  messageDelayMs?: number;
}

/** A real SMTP server on a loopback port that keeps what it receives, for tests. */
export interface SmtpSink {
  /** smtp://127.0.0.1:<port> (no auth; smtps://...?tls.rejectUnauthorized=false when `secure`). */
  url: string;
  /**
   * Every accepted mail, parsed, in arrival order. A mail counts as arrived once its data ends, before
   * the server answers it, as with Postfix or Mailpit: a client that dies waiting for "250" has
   * still delivered it.
   */
  mails: ParsedMail[];
  /** Resolves with the first mail (already received or still to come) that matches. */
  waitForMail(predicate?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Calls `listener` with each mail as it arrives and the time it did (Date.now()); returns the unsubscribe. */
  onMail(listener: (mail: ParsedMail, at: number) => void): () => void;
  /** Rejects the next `n` messages at the end of their data with a temporary 451 (the sender should retry). */
  failNext(n: number): void;
  /** Holds the answer to each next message for `ms` (0 to stop), e.g. to stop a worker mid-send. */
  delayNext(ms: number): void;
  /**
   * Refuses `recipient` at RCPT TO with `code` (e.g. 451 "try later", 550 "no such user"), for the next
   * `times` attempts (forever by default); then accepts it.
   */
  refuse(recipient: string, code: number, times?: number): void;
  /** From now on keeps each mail but does not answer it until releaseReplies(): a sender caught mid-send. */
  holdReplies(): void;
  /** Sends the held answers (to whoever is still connected) and stops holding. */
  releaseReplies(): void;
  /** Resolves once `n` answers are held. */
  waitForHeld(n: number, timeoutMs?: number): Promise<void>;
  /** How many messages were rejected by failNext or refuse so far. */
  rejected(): number;
  /** How many connections clients opened so far. */
  connections(): number;
  /** Per message, the milliseconds from the server's 354 to the end of the data, in arrival order. */
  dataTimes(): number[];
  close(): Promise<void>;
}

interface Waiter {
  predicate: (mail: ParsedMail) => boolean;
  resolve: (mail: ParsedMail) => void;
}

const smtpError = (message: string, responseCode: number) =>
  Object.assign(new Error(message), { responseCode });

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const waiters = new Set<Waiter>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const refusals = new Map<string, { code: number; times: number }>();
  const heldAnswers: (() => void)[] = [];
  let holding = false;
  let failures = 0;
  let rejectedCount = 0;
  let connectionCount = 0;
  let delayMs = 0;
  const dataTimes: number[] = [];

  const server = new SMTPServer({
    secure: options.secure ?? false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    // A reverse DNS lookup per connection would add up to 1.5 s of its own to every session.
    disableReverseLookup: true,
    // close() waits this long for clients to leave, then cuts them (a pooled client stays connected).
    closeTimeout: 1_000,
    logger: false,
    onConnect(_session, callback) {
      connectionCount += 1;
      if (options.greetingDelayMs) setTimeout(() => callback(), options.greetingDelayMs);
      else callback();
    },
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal && refusal.times > 0) {
        refusal.times -= 1;
        rejectedCount += 1;
        callback(smtpError(`Refused by the test sink (${refusal.code})`, refusal.code));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      const began = Date.now();
      stream.once('end', () => dataTimes.push(Date.now() - began));
      const answer = (error?: Error) => {
        const send = () => callback(error);
        const wait = delayMs + (options.messageDelayMs ?? 0);
        const later = wait > 0 ? () => setTimeout(send, wait) : send;
        if (holding) {
          heldAnswers.push(later);
          events.emit('held');
        } else later();
      };
      simpleParser(stream)
        .then((mail) => {
          if (failures > 0) {
            failures -= 1;
            rejectedCount += 1;
            answer(smtpError('Try again later (test sink)', 451));
            return;
          }
          mails.push(mail);
          const at = Date.now();
          events.emit('mail', mail, at);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(mail)) {
              waiters.delete(waiter);
              waiter.resolve(mail);
            }
          }
          answer();
        })
        .catch((error: Error) => answer(error));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: options.secure
      ? `smtps://127.0.0.1:${port}?tls.rejectUnauthorized=false`
      : `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail(predicate = () => true, timeoutMs = 10_000) {
      const found = mails.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ParsedMail>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    onMail(listener) {
      events.on('mail', listener);
      return () => events.off('mail', listener);
    },
    failNext(n) {
      failures = n;
    },
    delayNext(ms) {
      delayMs = ms;
    },
    refuse(recipient, code, times = Infinity) {
      refusals.set(recipient.toLowerCase(), { code, times });
    },
    holdReplies() {
      holding = true;
    },
    releaseReplies() {
      holding = false;
      for (const send of heldAnswers.splice(0)) send();
    },
    waitForHeld(n, timeoutMs = 10_000) {
      if (heldAnswers.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (heldAnswers.length < n) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${heldAnswers.length} answers held after ${timeoutMs} ms, not ${n}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          events.off('held', check);
        };
        events.on('held', check);
      });
    },
    rejected: () => rejectedCount,
    connections: () => connectionCount,
    dataTimes: () => [...dataTimes],
    close() {
      // Answer what is still held, so no session waits for its socket timeout.
      holding = false;
      for (const send of heldAnswers.splice(0)) send();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The addresses a parsed mail was sent to. */
export const recipientsOf = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((to) =>
    to.value.map((a) => a.address ?? ''),
  );
