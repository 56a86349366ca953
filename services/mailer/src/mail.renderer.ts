import type { MagicLinkMailJob, MailJob } from '@uis/proto';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'User Interaction Simulator';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

function renderMagicLink(job: MagicLinkMailJob): RenderedMail {
  const expiry = `It expires in ${minutes(job.expiresInMinutes)} and can be used once.`;
  const ignore =
    'If you did not ask to sign in, you can ignore this e-mail; nobody can sign in without the link.';
  const text = [
    'Hello,',
    '',
    `Open this link to sign in to ${PRODUCT}:`,
    '',
    job.link,
    '',
    expiry,
    '',
    ignore,
    '',
  ].join('\n');
  const link = escapeHtml(job.link);
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hello,</p>',
    `<p>Open this link to sign in to ${escapeHtml(PRODUCT)}:</p>`,
    `<p><a href="${link}">Sign in</a></p>`,
    `<p style="word-break: break-all; color: #555">${link}</p>`,
    `<p>${escapeHtml(expiry)}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `Your sign-in link for ${PRODUCT}`, text, html };
}

/** Turns a job's facts into the mail's words; producers never send markup. */
export function renderMail(job: MailJob): RenderedMail {
  switch (job.kind) {
    case 'magic-link':
      return renderMagicLink(job);
  }
}
