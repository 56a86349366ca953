import { bearer, sendInput } from '@uis/kit/testing';
import { Client } from 'pg';
import { CONFIRM_EMAIL_FIRST } from '../src/sign-in/sign-in.service';
import { PUBLIC_URL, startAuth, type AuthHarness } from './auth-harness';

describe('sign-in by magic link', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('sign_in', {
      SIGN_IN_LIMIT_PER_EMAIL: '3',
      SIGN_IN_LIMIT_PER_ADDRESS_PER_MINUTE: '6',
    });
  });
  afterAll(() => h.close());

  const accountsNamed = async (email: string) => {
    const client = new Client({ connectionString: h.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM auth.users WHERE email = $1', [
        email,
      ]);
      return (rows[0] as { n: number }).n;
    } finally {
      await client.end();
    }
  };

  it('goes from the mailed link to tokens to the user, for a new and then a returning researcher', async () => {
    const link = await h.mailedLink('Ada@Lab.test');
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/authcallback`);
    expect(link.searchParams.get('email')).toBe('ada@lab.test');
    const token = link.searchParams.get('token')!;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

    // No account yet: the callback learns it must sign up, and the token stays usable as proof.
    const unknown = await h.http().get('/getUserTokens').query({ email: 'ada@lab.test', token }).expect(404);
    expect(unknown.body).toMatchObject({ status: 'ERROR', res: { code: 'SIGNUP_REQUIRED' } });
    const created = await h
      .http()
      .post('/setNewUser')
      .send({ email: 'ada@lab.test', name: 'Ada Lovelace', type: 'researcher', token })
      .expect(200);
    const { accessToken } = created.body.res as { accessToken: string };

    const me = await h.http().get('/getUserFromToken').query({ accessToken }).expect(200);
    expect(me.body).toEqual({
      status: 'SUCCESS',
      res: {
        user: { id: expect.any(String), email: 'ada@lab.test', name: 'Ada Lovelace', type: 'researcher' },
      },
    });
    await h.http().get('/getUserFromToken').set(bearer(accessToken)).expect(200);

    // The proof was used up by the sign-up.
    await h.http().get('/getUserTokens').query({ email: 'ada@lab.test', token }).expect(401);

    // Returning: a new link gives tokens at once, exactly once.
    const again = (await h.mailedLink('ada@lab.test')).searchParams.get('token')!;
    const tokens = await h
      .http()
      .get('/getUserTokens')
      .query({ email: 'ada@lab.test', token: again })
      .expect(200);
    expect(tokens.body.res).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const reuse = await h
      .http()
      .get('/getUserTokens')
      .query({ email: 'ada@lab.test', token: again })
      .expect(401);
    expect(reuse.body.res.message).toBe(
      'This sign-in link is invalid, expired or already used. Please request a new one.',
    );
  });

  it('keeps only a hash of the token, unused until the callback page trades it', async () => {
    const link = await h.mailedLink('grace@lab.test');
    const token = link.searchParams.get('token')!;
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    const rows = await client.query<{ token_hash: string; used_at: Date | null }>(
      "SELECT token_hash, used_at FROM auth.magic_links WHERE email = 'grace@lab.test'",
    );
    await client.end();
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.token_hash).not.toContain(token);
    expect(rows.rows[0]!.used_at).toBeNull();
  });

  it('refuses a token presented with another e-mail, and an expired token', async () => {
    await h.signUp('bob@uni.test', 'Bob');
    const link = await h.mailedLink('bob@uni.test');
    const token = link.searchParams.get('token')!;
    await h.http().get('/getUserTokens').query({ email: 'eve@uni.test', token }).expect(401);

    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    await client.query(
      "UPDATE auth.magic_links SET expires_at = now() - interval '1 second' WHERE email = 'bob@uni.test' AND used_at IS NULL",
    );
    await client.end();
    await h.http().get('/getUserTokens').query({ email: 'bob@uni.test', token }).expect(401);
  });

  it('answers the same whether or not the e-mail has an account', async () => {
    await h.signUp('known@uni.test', 'Known');
    const known = await h
      .http()
      .post('/auth/magiclogin')
      .set('x-forwarded-for', '10.9.0.1')
      .send({ destination: 'known@uni.test' });
    const unknown = await h
      .http()
      .post('/auth/magiclogin')
      .set('x-forwarded-for', '10.9.0.2')
      .send({ destination: 'nobody@uni.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({
      status: 'SUCCESS',
      res: { message: 'Magic link sent! Please check your email and click the link to proceed' },
    });
  });

  it('rate limits per e-mail and per client address with a clear 429', async () => {
    const ask = (destination: string, from: string) =>
      h.http().post('/auth/magiclogin').set('x-forwarded-for', from).send({ destination });
    for (let i = 0; i < 3; i++) expect((await ask('flood@uni.test', `10.1.0.${i}`)).status).toBe(200);
    const byEmail = await ask('flood@uni.test', '10.1.0.99');
    expect(byEmail.status).toBe(429);
    expect(byEmail.body).toMatchObject({ status: 'ERROR', res: { code: 'RATE_LIMITED' } });
    expect(byEmail.body.res.message).toMatch(
      /^Too many sign-in requests\. Please wait \d+ minutes? and try again\.$/,
    );

    for (let i = 0; i < 6; i++) expect((await ask(`spray${i}@uni.test`, '10.2.0.1')).status).toBe(200);
    expect((await ask('spray-last@uni.test', '10.2.0.1')).status).toBe(429);
    expect((await ask('spray-last@uni.test', '10.2.0.2')).status).toBe(200);
  });

  it('counts one inbox however it is spelled, and mails the address as typed', async () => {
    const ask = (destination: string, from: string) =>
      h.http().post('/auth/magiclogin').set('x-forwarded-for', from).send({ destination });
    // Gmail ignores dots and +tags, and googlemail.com is gmail.com.
    const spellings = ['Ada.Byron@gmail.com', 'adabyron+1@googlemail.com', 'a.da.byron+x@gmail.com'];
    for (const [i, spelling] of spellings.entries())
      expect((await ask(spelling, `10.5.0.${i}`)).status).toBe(200);
    expect((await ask('adabyron+another@gmail.com', '10.5.0.9')).status).toBe(429);
    // A +tag anywhere; dots elsewhere are another mailbox.
    for (let i = 0; i < 3; i++) expect((await ask(`grace+${i}@uni.test`, `10.5.1.${i}`)).status).toBe(200);
    expect((await ask('grace@uni.test', '10.5.1.9')).status).toBe(429);
    expect((await ask('g.race@uni.test', '10.5.1.9')).status).toBe(200);
    // The link is the typed address's: only the count is by inbox.
    const link = await h.mailedLink('Tagged+Study@uni.test');
    expect(link.searchParams.get('email')).toBe('tagged+study@uni.test');
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as its IPv4', async () => {
    const ask = (destination: string, from: string) =>
      h.http().post('/auth/magiclogin').set('x-forwarded-for', from).send({ destination });
    // Six addresses of one /64 are one client (6 a minute here); another /64 is another.
    for (let i = 0; i < 6; i++)
      expect((await ask(`v6-${i}@uni.test`, `2001:db8:5:6::${i + 1}`)).status).toBe(200);
    expect((await ask('v6-last@uni.test', '2001:db8:5:6:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await ask('v6-last@uni.test', '2001:db8:5:7::1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await ask(`v4-${i}@uni.test`, '10.6.0.1')).status).toBe(200);
    expect((await ask('v4-5@uni.test', '::ffff:10.6.0.1')).status).toBe(200);
    expect((await ask('v4-6@uni.test', '::ffff:10.6.0.1')).status).toBe(429);
    expect((await ask('v4-6@uni.test', '10.6.0.1')).status).toBe(429);
  });

  describe('sign-up', () => {
    it('signs a participant up with the proof of their e-mail that the magic link gives', async () => {
      const { token: accessToken } = await h.signUp('pat@uni.test', 'Pat');
      const me = await h.http().get('/getUserFromToken').set(bearer(accessToken)).expect(200);
      expect(me.body.res.user).toMatchObject({ email: 'pat@uni.test', name: 'Pat', type: 'participant' });
    });

    // The probe's hole: anyone could claim an address a researcher had put in a scope, and see that session.
    it('refuses every sign-up without a usable link token of that e-mail, changing nothing', async () => {
      const unproven = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'invited@uni.test', name: 'Claimer', type: 'participant' })
        .expect(401);
      expect(unproven.body.res).toMatchObject({ code: 'UNAUTHENTICATED', message: CONFIRM_EMAIL_FIRST });
      const otherToken = (await h.mailedLink('someone.else@uni.test')).searchParams.get('token')!;
      const wrong = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'invited@uni.test', name: 'Claimer', token: otherToken })
        .expect(401);
      expect(wrong.body.res.message).toBe(
        'This sign-in link is invalid, expired or already used. Please request a new one.',
      );
      expect(await accountsNamed('invited@uni.test')).toBe(0);
    });

    it('answers a stranger the same whether or not the e-mail has an account (the token is checked first)', async () => {
      await h.signUp('taken@uni.test', 'First');
      const answer = async (email: string, token?: string) => {
        const res = await h.http().post('/setNewUser').send({ email, name: 'Second', token });
        return [res.status, res.body.res.message as string];
      };
      expect(await answer('TAKEN@uni.test')).toEqual(await answer('free@uni.test'));
      expect(await answer('taken@uni.test', 'guessed-token')).toEqual(
        await answer('free@uni.test', 'guessed-token'),
      );
    });

    it('tells the owner of the address that it has an account, and keeps their link usable', async () => {
      await h.signUp('owner.taken@uni.test', 'First');
      const token = (await h.mailedLink('owner.taken@uni.test')).searchParams.get('token')!;
      const res = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'owner.taken@uni.test', name: 'Second', token })
        .expect(409);
      expect(res.body.res.message).toBe(
        'An account with this e-mail already exists. Please sign in instead.',
      );
      // The refused sign-up did not use the link up: its owner can still sign in with it.
      await h.http().get('/getUserTokens').query({ email: 'owner.taken@uni.test', token }).expect(200);
    });

    it('grants researcher only to RESEARCHER_EMAILS, and only with proof of the e-mail', async () => {
      const malloryToken = (await h.mailedLink('mallory@evil.test')).searchParams.get('token')!;
      const outsider = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'mallory@evil.test', name: 'Mallory', type: 'researcher', token: malloryToken })
        .expect(403);
      expect(outsider.body.res.message).toMatch(
        /^Researcher accounts on this site are granted by its administrators/,
      );
      const unproven = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'claim@lab.test', name: 'Claim', type: 'researcher' })
        .expect(401);
      expect(unproven.body.res.message).toMatch(/Confirm your e-mail first/);
      const otherToken = (await h.mailedLink('someone@lab.test')).searchParams.get('token')!;
      await h
        .http()
        .post('/setNewUser')
        .send({ email: 'claim@lab.test', name: 'Claim', type: 'researcher', token: otherToken })
        .expect(401);
    });
  });

  describe('validation texts of spec section 5', () => {
    it.each([
      ['POST', '/auth/magiclogin', {}, 'Please provide your email to enter.'],
      ['POST', '/auth/magiclogin', { destination: '  ' }, 'Please provide your email to enter.'],
      ['POST', '/setNewUser', { name: 'Ada' }, 'Please provide your email.'],
      ['POST', '/setNewUser', { email: '', name: 'Ada' }, 'Please provide your email.'],
      ['POST', '/setNewUser', { email: 'ada@x.test' }, 'Please provide your name.'],
      ['POST', '/setNewUser', { email: 'ada@x.test', name: '   ' }, 'Please provide your name.'],
      ['GET', '/getUserTokens', { email: 'ada@x.test' }, 'This field must not be empty'],
      // Without one at all, the web app's refresh cookie is used (tokens.test.ts).
      ['POST', '/getAccessTokenFromRefreshToken', { refreshToken: '' }, 'This field must not be empty'],
    ] as const)('%s %s %j -> %s', async (method, path, payload, text) => {
      const res = await sendInput(h.http(), method, path, payload).expect(400);
      expect(res.body).toMatchObject({ status: 'ERROR', res: { message: text, code: 'VALIDATION' } });
    });

    it('says what is wrong with a malformed e-mail or user type', async () => {
      const email = await h.http().post('/auth/magiclogin').send({ destination: 'not-an-email' }).expect(400);
      expect(email.body.res.message).toBe('destination: is not a valid e-mail address');
      const type = await h
        .http()
        .post('/setNewUser')
        .send({ email: 'a@b.test', name: 'A', type: 'admin' })
        .expect(400);
      expect(type.body.res.message).toBe('type: must be researcher or participant');
    });
  });
});
