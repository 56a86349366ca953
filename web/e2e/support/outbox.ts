/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';
import { stack } from './stack-env';

/**
 * Invitation mails as the dev outbox leaves them: the `[dev outbox] invitation for <email>: <url>
 * (saved <file>)` line `npm start` prints, and the .eml it names, for the subject and the text.
 */

const WAIT_MS = 15_000;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface InvitationMail {
  link: string;
  subject: string;
  /** The whole message, quoted-printable undone (ASCII text reads as written). */
  text: string;
}

/** Undoes quoted-printable (soft line breaks and =XX), which mail uses for long lines such as links. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A header's value: folded lines unfolded, RFC 2047 encoded words (=?UTF-8?B|Q?...?=) decoded. */
function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const value = new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(unfolded)?.[1] ?? '';
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** Every invitation mailed to `email` so far, oldest first: its link and its saved file. */
function invitationLines(email: string): Array<{ link: string; file: string }> {
  const line = new RegExp(
    `\\[dev outbox\\] invitation for ${escape(email)}: (\\S+)\\s+\\(saved (.+?)\\)`,
    'g',
  );
  return [...fs.readFileSync(stack().serverLog, 'utf8').matchAll(line)].map((match) => ({
    link: match[1] ?? '',
    file: path.join(stack().outboxDir, path.basename(match[2] ?? '')),
  }));
}

/** How many invitations went to `email` so far. */
export const invitationCount = (email: string): number => invitationLines(email).length;

/**
 * Runs `send` (what makes the app invite `email`: saving the scope, Re-send) and answers the
 * invitation it mailed: the first one after `send` started.
 */
export async function nextInvitation(email: string, send: () => Promise<void>): Promise<InvitationMail> {
  const before = invitationCount(email);
  await send();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const sent = invitationLines(email)[before];
    if (sent) {
      const raw = fs.readFileSync(sent.file, 'utf8');
      return { link: sent.link, subject: headerOf(raw, 'Subject'), text: decodeQuotedPrintable(raw) };
    }
    if (Date.now() > deadline)
      throw new Error(`no new invitation for ${email} within ${WAIT_MS} ms (see ${stack().serverLog})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
