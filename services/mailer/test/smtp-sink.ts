import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on a loopback port that keeps what it receives, for tests. */
export interface SmtpSink {
  /** smtp://127.0.0.1:<port> (no TLS, no auth). */
  url: string;
  /** Every accepted mail, parsed, in arrival order. */
  mails: ParsedMail[];
  /** Resolves with the first mail (already received or still to come) that matches. */
  waitForMail(predicate?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Rejects the next `n` messages with a temporary 451 (the sender should retry). */
  failNext(n: number): void;
  /** Holds the answer to each next message for `ms` (0 to stop), e.g. to stop a worker mid-send. */
  delayNext(ms: number): void;
  /** How many messages were rejected by failNext so far. */
  rejected(): number;
  close(): Promise<void>;
}

interface Waiter {
  predicate: (mail: ParsedMail) => boolean;
  resolve: (mail: ParsedMail) => void;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const waiters = new Set<Waiter>();
  let failures = 0;
  let rejectedCount = 0;
  let delayMs = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const answer = (error?: Error) => {
        if (delayMs > 0) setTimeout(() => callback(error), delayMs);
        else callback(error);
      };
      simpleParser(stream)
        .then((mail) => {
          if (failures > 0) {
            failures -= 1;
            rejectedCount += 1;
            const error = Object.assign(new Error('Try again later (test sink)'), { responseCode: 451 });
            answer(error);
            return;
          }
          mails.push(mail);
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
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
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
    failNext(n) {
      failures = n;
    },
    delayNext(ms) {
      delayMs = ms;
    },
    rejected: () => rejectedCount,
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The addresses a parsed mail was sent to. */
export const recipientsOf = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((to) =>
    to.value.map((a) => a.address ?? ''),
  );
