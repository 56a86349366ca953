import { escapeHtml, renderMail } from './mail.renderer';

describe('renderMail', () => {
  const job = {
    kind: 'magic-link' as const,
    requestId: 'r1',
    to: 'a@b.c',
    link: 'http://localhost:8443/authcallback?email=a%40b.c&token=abc<def>',
    expiresInMinutes: 15,
  };

  it('says what the link is for, when it expires, that it works once, and what to do if unexpected', () => {
    const { subject, text } = renderMail(job);
    expect(subject).toBe('Your sign-in link for User Interaction Simulator');
    expect(text).toContain(`\n${job.link}\n`);
    expect(text).toContain('expires in 15 minutes');
    expect(text).toContain('can be used once');
    expect(text).toContain('did not ask to sign in, you can ignore this e-mail');
  });

  it('escapes the link in the HTML part', () => {
    const { html } = renderMail(job);
    expect(html).toContain(
      'href="http://localhost:8443/authcallback?email=a%40b.c&amp;token=abc&lt;def&gt;"',
    );
    expect(html).not.toContain('<def>');
  });

  it('uses the singular for one minute', () => {
    expect(renderMail({ ...job, expiresInMinutes: 1 }).text).toContain('expires in 1 minute ');
  });

  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
