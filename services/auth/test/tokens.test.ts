import { signAccessToken } from '@uis/kit';
import { testUser } from '@uis/kit/testing';
import { bearer, startAuth, type AuthHarness, type Tokens } from './auth-harness';

describe('access and refresh tokens, accounts', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('tokens');
  });
  afterAll(() => h.close());

  const refresh = (refreshToken: string) =>
    h.http().post('/getAccessTokenFromRefreshToken').send({ refreshToken });

  it('puts the user id, e-mail, name and type in a short-lived access token', async () => {
    const { accessToken } = await h.signUp('claims@uni.test', 'Claims');
    const [, payload] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({
      email: 'claims@uni.test',
      name: 'Claims',
      type: 'participant',
      sub: expect.any(String),
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
  });

  it('rotates the refresh token on every use', async () => {
    const first = await h.signUp('rota@uni.test', 'Rota');
    const second = (await refresh(first.refreshToken).expect(200)).body.res as Tokens;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await h.http().get('/getUserFromToken').set(bearer(second.accessToken)).expect(200);
    const third = (await refresh(second.refreshToken).expect(200)).body.res as Tokens;
    expect(third.refreshToken).not.toBe(second.refreshToken);
  });

  it('revokes the whole login when a rotated refresh token is presented again', async () => {
    const login = await h.signUp('stolen@uni.test', 'Victim');
    const rotated = (await refresh(login.refreshToken).expect(200)).body.res as Tokens;
    const replay = await refresh(login.refreshToken).expect(401);
    expect(replay.body.res.message).toBe('Your session has ended. Please sign in again.');
    await refresh(rotated.refreshToken).expect(401);

    // Another login of the same person is untouched.
    const other = (
      await h
        .http()
        .get('/getUserTokens')
        .query({
          email: 'stolen@uni.test',
          token: (await h.mailedLink('stolen@uni.test')).searchParams.get('token')!,
        })
    ).body.res as Tokens;
    await refresh(other.refreshToken).expect(200);
  });

  it('refuses unknown and expired refresh tokens', async () => {
    await refresh('made-up-token').expect(401);
    const login = await h.signUp('old@uni.test', 'Old');
    const { Client } = await import('pg');
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    await client.query("UPDATE auth.refresh_tokens SET expires_at = now() - interval '1 second'");
    await client.end();
    await refresh(login.refreshToken).expect(401);
  });

  it('gives refresh tokens three days', async () => {
    await h.signUp('ttl@uni.test', 'TTL');
    const { Client } = await import('pg');
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    const { rows } = await client.query<{ days: number }>(
      `SELECT round(extract(epoch FROM r.expires_at - r.created_at) / 86400)::int AS days
       FROM auth.refresh_tokens r JOIN auth.users u ON u.id = r.user_id WHERE u.email = 'ttl@uni.test'`,
    );
    await client.end();
    expect(rows).toEqual([{ days: 3 }]);
  });

  it('logs out: the refresh token and its successors stop working', async () => {
    const login = await h.signUp('bye@uni.test', 'Bye');
    await h.http().post('/logout').send({ refreshToken: login.refreshToken }).expect(200);
    await refresh(login.refreshToken).expect(401);
    await h.http().post('/logout').send({ refreshToken: 'never-issued' }).expect(200);
  });

  it('answers 401 without a token, with a forged one, and with an expired one', async () => {
    const forged = signAccessToken(
      'f'.repeat(40),
      testUser('researcher', { email: 'x@uni.test', name: 'X' }),
      60,
    );
    const expired = signAccessToken(
      h.env.JWT_SECRET!,
      testUser('researcher', { email: 'x@uni.test', name: 'X' }),
      -1,
    );
    for (const [method, path] of [
      ['get', '/getUserFromToken'],
      ['get', '/getAllParticipants'],
      ['post', '/deleteUser'],
    ] as const) {
      for (const headers of [{}, bearer('garbage'), bearer(forged), bearer(expired)]) {
        const res = await h.http()[method](path).set(headers).send({ email: 'x@uni.test' });
        expect([path, res.status, res.body.status]).toEqual([path, 401, 'ERROR']);
      }
    }
    await h.http().get('/getUserFromToken').query({ accessToken: forged }).expect(401);
  });

  it('lists participants to researchers only, with e-mail and name', async () => {
    const researcher = await h.signUp('prof@lab.test', 'Prof', 'researcher');
    const participant = await h.signUp('stud@uni.test', 'Stud');
    const list = await h.http().get('/getAllParticipants').set(bearer(researcher.accessToken)).expect(200);
    const participants = list.body.res.participants as { email: string; name: string }[];
    expect(participants).toContainEqual({ email: 'stud@uni.test', name: 'Stud' });
    expect(participants.find((p) => p.email === 'prof@lab.test')).toBeUndefined();
    expect(Object.keys(participants[0]!).sort()).toEqual(['email', 'name']);
    await h.http().get('/getAllParticipants').set(bearer(participant.accessToken)).expect(403);
  });

  describe('account deletion', () => {
    it("refuses to delete someone else's account", async () => {
      const mine = await h.signUp('me@uni.test', 'Me');
      await h.signUp('you@uni.test', 'You');
      const res = await h
        .http()
        .post('/deleteUser')
        .set(bearer(mine.accessToken))
        .send({ email: 'you@uni.test' })
        .expect(403);
      expect(res.body.res.message).toBe('You can only delete your own account.');
      const researcher = await h.signUp('boss@lab.test', 'Boss', 'researcher');
      await h
        .http()
        .post('/deleteUser')
        .set(bearer(researcher.accessToken))
        .send({ email: 'you@uni.test' })
        .expect(403);
      const you = await h.http().get('/getAllParticipants').set(bearer(researcher.accessToken)).expect(200);
      expect(you.body.res.participants).toContainEqual({ email: 'you@uni.test', name: 'You' });
    });

    it('deletes the own account and revokes its tokens', async () => {
      const gone = await h.signUp('gone@uni.test', 'Gone');
      const second = (await refresh(gone.refreshToken).expect(200)).body.res as Tokens;
      await h
        .http()
        .post('/deleteUser')
        .set(bearer(second.accessToken))
        .send({ email: 'Gone@uni.test' })
        .expect(200);
      await refresh(second.refreshToken).expect(401);
      await h.http().get('/getUserFromToken').set(bearer(second.accessToken)).expect(401);
      await h
        .http()
        .post('/deleteUser')
        .set(bearer(second.accessToken))
        .send({ email: 'gone@uni.test' })
        .expect(401);
      // The e-mail is free again: the person may sign up anew, and the new account's tokens work.
      const back = await h.signUp('gone@uni.test', 'Back');
      await h.http().get('/getUserFromToken').set(bearer(back.accessToken)).expect(200);
    });
  });
});
