import type { InvitationMailJob, MagicLinkMailJob, MailJob } from '@uis/proto';

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
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** One link's mail: a greeting, what the link does, the link (a button and in full), then notes. */
function linkMail(
  subject: string,
  lead: string,
  button: string,
  link: string,
  notes: string[],
): RenderedMail {
  const text = ['Hello,', '', lead, '', link, '', ...notes.flatMap((note) => [note, ''])].join('\n');
  const href = escapeHtml(link);
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(lead)}</p>`,
    `<p><a href="${href}">${escapeHtml(button)}</a></p>`,
    `<p style="word-break: break-all; color: #555">${href}</p>`,
    ...notes.map((note) => `<p>${escapeHtml(note)}</p>`),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

const renderMagicLink = (job: MagicLinkMailJob): RenderedMail =>
  linkMail(
    `Your sign-in link for ${PRODUCT}`,
    `Open this link to sign in to ${PRODUCT}:`,
    'Sign in',
    job.link,
    [
      `It expires in ${minutes(job.expiresInMinutes)} and can be used once.`,
      'If you did not ask to sign in, you can ignore this e-mail; nobody can sign in without the link.',
    ],
  );

const renderInvitation = (job: InvitationMailJob): RenderedMail =>
  linkMail(
    `${job.researcherName} invites you to “${job.sessionTitle}”`,
    `${job.researcherName} invites you to take part in the study session “${job.sessionTitle}” on ${PRODUCT}. Open this link to sign in (or make your account) and join it:`,
    'Join the session',
    job.link,
    [
      `The link works once and for ${days(job.expiresInDays)}; after that, sign in with your e-mail address to find the session in your list.`,
      'If you did not expect this invitation, you can ignore this e-mail.',
    ],
  );

/** Turns a job's facts into the mail's words; producers never send markup. */
export function renderMail(job: MailJob): RenderedMail {
  switch (job.kind) {
    case 'magic-link':
      return renderMagicLink(job);
    case 'invitation':
      return renderInvitation(job);
  }
}
