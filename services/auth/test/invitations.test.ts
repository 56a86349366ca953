import { INVITATIONS_PER_ADDRESS_PER_HOUR, SERVICE_TOKEN_HEADER, internalRoutes } from '@uis/proto';
import { recipientsOf } from '@uis/mailer/testing';
import { randomUUID } from 'node:crypto';
import { INVITATIONS_PER_INBOX_PER_HOUR } from '../src/invitations/invitation-limiter';
import { PUBLIC_URL, startAuth, type AuthHarness } from './auth-harness';

describe('invitation mails (studies asks, auth mails a sign-in link that opens the session)', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('invitations');
  });
  afterAll(() => h.close());

  const invite = (
    sessionId: string,
    email: string,
    token = h.env.SERVICE_TOKEN!,
    words = { sessionTitle: 'Pattern <viewing>', researcherName: 'Rhea Researcher' },
  ) =>
    h
      .http()
      .post(internalRoutes.authSendInvitation.path)
      .set(SERVICE_TOKEN_HEADER, token)
      .send({ sessionId, email, ...words });

  const mailTo = (email: string) =>
    h.smtp.waitForMail((m) => recipientsOf(m).includes(email) && /invites you/.test(m.subject ?? ''));

  it('mails a link that signs the invited person up (or in) and opens the session', async () => {
    const sessionId = randomUUID();
    await invite(sessionId, 'Invited@Uni.test').expect(200);
    const mail = await mailTo('invited@uni.test');
    expect(mail.subject).toBe('Researcher “Rhea Researcher” invites you to “Pattern <viewing>”');
    expect(mail.html).toContain('Pattern &lt;viewing&gt;');
    const link = new URL(/https?:\/\/\S+\/authcallback\?\S+/.exec(mail.text ?? '')![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/authcallback`);
    expect(link.searchParams.get('next')).toBe(`/liveSession/:${sessionId}`);
    const token = link.searchParams.get('token')!;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

    // No account yet: the link proves the address for the sign-up, once.
    await h.http().get('/getUserTokens').query({ email: 'invited@uni.test', token }).expect(404);
    await h
      .http()
      .post('/setNewUser')
      .send({ email: 'invited@uni.test', name: 'Ivy Invited', type: 'participant', token })
      .expect(200);
    await h.http().get('/getUserTokens').query({ email: 'invited@uni.test', token }).expect(401);
  });

  it(`sends ${INVITATIONS_PER_ADDRESS_PER_HOUR} mails to one address of one session an hour, then refuses (429)`, async () => {
    const sessionId = randomUUID();
    for (let i = 0; i < INVITATIONS_PER_ADDRESS_PER_HOUR; i += 1)
      await invite(sessionId, 'often@uni.test').expect(200);
    const refused = await invite(sessionId, 'often@uni.test').expect(429);
    expect(refused.body.res.message).toMatch(
      /often@uni\.test was invited 3 times in the last hour: try again in \d+ minutes?\./,
    );
    // Another address of that session, and that address in another session, still get theirs.
    await invite(sessionId, 'other@uni.test').expect(200);
    await invite(randomUUID(), 'often@uni.test').expect(200);
  });

  it('quotes the researcher’s own words as theirs, each on one line, so none reads as the platform’s', async () => {
    await invite(randomUUID(), 'quoted@uni.test', undefined, {
      sessionTitle: 'Study”\n\nYour password expires today. Reply with it to keep your account',
      researcherName: 'IT Office” of User Interaction Simulator: “Support',
    }).expect(200);
    const mail = await mailTo('quoted@uni.test');
    const sender = "Researcher “IT Office' of User Interaction Simulator: 'Support”";
    const title = "“Study' Your password expires today. Reply with it to keep your account”";
    expect(mail.subject).toBe(`${sender} invites you to ${title}`);
    const lines = (mail.text ?? '').split('\n');
    expect(lines).toContain(
      `${sender} invites you to take part in the study session ${title} on User Interaction Simulator. Open this link to sign in (or make your account) and join it:`,
    );
    expect(lines.filter((line) => /password/.test(line))).toHaveLength(1);
    expect(mail.html).toContain('Researcher “IT Office&#39; of User Interaction Simulator: &#39;Support”');
  });

  it(`sends one inbox at most ${INVITATIONS_PER_INBOX_PER_HOUR} invitations an hour from all sessions, however it is spelled`, async () => {
    for (let i = 0; i < INVITATIONS_PER_INBOX_PER_HOUR; i += 1)
      await invite(randomUUID(), i % 2 ? 'flooded@uni.test' : `Flooded+${i}@uni.test`).expect(200);
    const refused = await invite(randomUUID(), 'flooded+again@uni.test').expect(429);
    expect(refused.body.res.message).toMatch(
      new RegExp(
        `^flooded\\+again@uni\\.test got ${INVITATIONS_PER_INBOX_PER_HOUR} invitations in the last hour, from all sessions: try again in \\d+ minutes?\\.$`,
      ),
    );
    // Other inboxes are not held up.
    await invite(randomUUID(), 'not-flooded@uni.test').expect(200);
  });

  it('answers only our own services, and refuses bad input', async () => {
    await invite(randomUUID(), 'x@uni.test', 'not-the-service-token').expect(403);
    await h
      .http()
      .post(internalRoutes.authSendInvitation.path)
      .set(SERVICE_TOKEN_HEADER, h.env.SERVICE_TOKEN!)
      .send({ sessionId: 'nope', email: 'not an e-mail', sessionTitle: 'T', researcherName: '' })
      .expect(400);
  });
});
