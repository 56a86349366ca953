/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';
import { stack } from './stack-env';

/**
 * Magic links as a newcomer finds them: the `[dev outbox] magic link for <email>: <url>` line that
 * `npm start` prints, or else the .eml the dev outbox saved.
 */

const LINK_WAIT_MS = 15_000;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function linksInLog(email: string): string[] {
  const line = new RegExp(`\\[dev outbox\\] magic link for ${escape(email)}: (\\S+)`, 'g');
  return [...fs.readFileSync(stack().serverLog, 'utf8').matchAll(line)].map((match) => match[1] ?? '');
}

/** Undoes quoted-printable (soft line breaks and =XX), which mail uses for long lines such as links. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function linksInOutbox(email: string): string[] {
  const dir = stack().outboxDir;
  if (!fs.existsSync(dir)) return [];
  return (
    fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .map((file) => decodeQuotedPrintable(fs.readFileSync(path.join(dir, file), 'utf8')))
      // The whole address: `axe-call-ruth@...` is not `call-ruth@...`'s mail.
      .filter((mail) => new RegExp(`^To:(?:.*[\\s<,])?${escape(email)}(?:[>,\\s]|$)`, 'mi').test(mail))
      .map((mail) => /https?:\/\/\S+\/authcallback\?[^\s"<>]+/.exec(mail)?.[0] ?? '')
      .filter(Boolean)
  );
}

/** Every magic link mailed to `email` so far, oldest first. */
function magicLinks(email: string): string[] {
  const printed = linksInLog(email);
  return printed.length > 0 ? printed : linksInOutbox(email);
}

/**
 * Runs `send` (what makes the app mail a link, e.g. submitting the login form) and answers the link
 * it mailed to `email`: the first one sent after `send` started.
 */
export async function nextMagicLink(email: string, send: () => Promise<void>): Promise<string> {
  const before = magicLinks(email).length;
  await send();
  const deadline = Date.now() + LINK_WAIT_MS;
  for (;;) {
    const link = magicLinks(email)[before];
    if (link) return link;
    if (Date.now() > deadline) {
      throw new Error(`no new magic link for ${email} within ${LINK_WAIT_MS} ms (see ${stack().serverLog})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
