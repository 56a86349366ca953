import { signAccessToken, verifyAccessToken } from '@uis/kit';
import { bearer, testUser } from '@uis/kit/testing';
import { APP_REQUEST_HEADER } from '@uis/proto';
import { parseSetCookie, type SetCookie } from 'cookie';
import type { Response } from 'supertest';
import { startAuth, type AuthHarness, type Tokens } from './auth-harness';

/** The web app's header: a cookie counts for a change only with it. */
const APP = { [APP_REQUEST_HEADER.name]: APP_REQUEST_HEADER.value };

/** An answer's Set-Cookie headers, read as a browser does, by cookie name. */
function setCookies(res: Response): Map<string, SetCookie> {
  const headers = (res.headers['set-cookie'] ?? []) as unknown as string[];
  return new Map(headers.map((header) => parseSetCookie(header)).map((cookie) => [cookie.name, cookie]));
}

/** The Cookie header a browser sends back after that answer. */
const cookieJar = (res: Response): string =>
  [...setCookies(res).values()].map(({ name, value }) => `${name}=${value}`).join('; ');

describe('access and refresh tokens, accounts', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('tokens');
  });
  afterAll(() => h.close());

  const refresh = (refreshToken: string) =>
    h.http().post('/getAccessTokenFromRefreshToken').send({ refreshToken });

  it('puts the user id, e-mail, name and type in a short-lived access token', async () => {
    const { token: accessToken } = await h.signUp('claims@uni.test', 'Claims');
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
    const expired = h.signIn(testUser('researcher', { email: 'x@uni.test', name: 'X' }), -1).token;
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

  it('lists to a researcher only the participants of their own sessions, with e-mail and name', async () => {
    const researcher = await h.signUp('prof@lab.test', 'Prof', 'researcher');
    const rival = await h.signUp('rival@lab.test', 'Rival', 'researcher');
    const participant = await h.signUp('stud@uni.test', 'Stud');
    await h.signUp('other@uni.test', 'Other');
    const idOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
    // The prof's sessions name Stud (and someone without an account, and the prof's colleague).
    h.studies.people.set(idOf(researcher.token), ['nobody@uni.test', 'rival@lab.test', 'stud@uni.test']);
    const list = await h.http().get('/getAllParticipants').set(researcher.headers).expect(200);
    expect(list.body.res.participants).toEqual([{ email: 'stud@uni.test', name: 'Stud' }]);
    // A researcher of another lab learns nobody's e-mail.
    const theirs = await h.http().get('/getAllParticipants').set(rival.headers).expect(200);
    expect(theirs.body.res.participants).toEqual([]);
    await h.http().get('/getAllParticipants').set(participant.headers).expect(403);
  });

  describe('account deletion', () => {
    it("refuses to delete someone else's account", async () => {
      const mine = await h.signUp('me@uni.test', 'Me');
      await h.signUp('you@uni.test', 'You');
      const res = await h
        .http()
        .post('/deleteUser')
        .set(mine.headers)
        .send({ email: 'you@uni.test' })
        .expect(403);
      expect(res.body.res.message).toBe('You can only delete your own account.');
      const researcher = await h.signUp('boss@lab.test', 'Boss', 'researcher');
      await h.http().post('/deleteUser').set(researcher.headers).send({ email: 'you@uni.test' }).expect(403);
      // Still there: signing up again with a proven address is refused as an existing account.
      const link = await h.mailedLink('you@uni.test');
      await h
        .http()
        .post('/setNewUser')
        .send({ email: 'you@uni.test', name: 'You', token: link.searchParams.get('token') })
        .expect(409);
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
      await h.http().get('/getUserFromToken').set(back.headers).expect(200);
    });
  });

  describe('token cookies: the web app holds no token a script can read', () => {
    const signUpInBrowser = async (email: string) => {
      const token = (await h.mailedLink(email)).searchParams.get('token')!;
      return h.http().post('/setNewUser').set(APP).send({ email, name: 'Jar', token }).expect(200);
    };
    const refreshByCookie = (cookies: string) =>
      h.http().post('/getAccessTokenFromRefreshToken').set('cookie', cookies);

    it('sets both tokens HttpOnly, SameSite=Lax and Secure (an https PUBLIC_URL), the refresh token for 3 days, and a readable cookie with only the expiry', async () => {
      const res = await signUpInBrowser('jar@uni.test');
      const cookies = setCookies(res);
      const access = cookies.get('accessToken')!;
      const refresh = cookies.get('refreshToken')!;
      const attributes = { path: '/', sameSite: 'lax', secure: true };
      expect(access).toMatchObject({ ...attributes, httpOnly: true });
      // The access token lives for the browser session, as the spec keeps it.
      expect(access.maxAge).toBeUndefined();
      expect(refresh).toMatchObject({ ...attributes, httpOnly: true, maxAge: 3 * 86_400 });
      const expiresAt = verifyAccessToken(h.env.JWT_SECRET!, access.value!)!.expiresAt;
      expect(cookies.get('signedIn')).toEqual({
        name: 'signedIn',
        value: String(Math.floor(expiresAt / 1000)),
        ...attributes,
        maxAge: 3 * 86_400,
      });
      // The web app's body never holds the refresh token; the access token is the cookie's.
      expect(res.body.res).toEqual({ accessToken: access.value, refreshToken: '' });

      // Signing in again by a link: the same cookies, the same body.
      const token = (await h.mailedLink('jar@uni.test')).searchParams.get('token')!;
      const again = await h.http().get('/getUserTokens').set(APP).query({ email: 'jar@uni.test', token });
      expect(again.status).toBe(200);
      expect([...setCookies(again).keys()].sort()).toEqual(['accessToken', 'refreshToken', 'signedIn']);
      expect(again.body.res.refreshToken).toBe('');
    });

    it('gives API clients (no app header) the pair in the body too', async () => {
      const pair = await h.signUp('api@uni.test', 'Api');
      expect(pair.refreshToken).not.toBe('');
      const res = await refresh(pair.refreshToken).expect(200);
      expect(setCookies(res).get('refreshToken')?.value).toBe(res.body.res.refreshToken);
    });

    it('refreshes by the refresh cookie only with the app header; the body then carries the access token alone', async () => {
      const signedUp = await signUpInBrowser('renew@uni.test');
      const cookies = cookieJar(signedUp);
      // What another site can make a browser send: the cookie without the header.
      const forged = await refreshByCookie(cookies).send({}).expect(401);
      expect(forged.body.res.message).toMatch(/X-Requested-With: uis/);

      const renewed = await refreshByCookie(cookies).set(APP).send({}).expect(200);
      const next = setCookies(renewed);
      expect(renewed.body.res).toEqual({ accessToken: next.get('accessToken')!.value, refreshToken: '' });
      expect(next.get('refreshToken')).toMatchObject({ httpOnly: true, maxAge: 3 * 86_400 });
      expect(next.get('refreshToken')!.value).not.toBe(setCookies(signedUp).get('refreshToken')!.value);
      await h
        .http()
        .get('/getUserFromToken')
        .set(bearer(renewed.body.res.accessToken as string))
        .expect(200);
      await h.http().get('/getUserFromToken').set('cookie', cookieJar(renewed)).expect(200);

      // The rotated cookie again is a replay: refused, and the browser told to drop every cookie.
      const replay = await refreshByCookie(cookies).set(APP).send({}).expect(401);
      for (const name of ['accessToken', 'refreshToken', 'signedIn']) {
        expect(setCookies(replay).get(name)).toMatchObject({ value: '', maxAge: 0, path: '/' });
      }
      await refreshByCookie(cookieJar(renewed)).set(APP).send({}).expect(401);
    });

    it('answers 401 to a refresh with neither a refresh token nor its cookie', async () => {
      const res = await h.http().post('/getAccessTokenFromRefreshToken').set(APP).send({}).expect(401);
      expect(res.body.res.code).toBe('UNAUTHENTICATED');
    });

    it('logs out by the cookie: the login ends and its cookies are cleared', async () => {
      const cookies = cookieJar(await signUpInBrowser('leave@uni.test'));
      const res = await h.http().post('/logout').set('cookie', cookies).set(APP).send({}).expect(200);
      for (const name of ['accessToken', 'refreshToken', 'signedIn']) {
        expect(setCookies(res).get(name)).toMatchObject({ value: '', maxAge: 0 });
      }
      await refreshByCookie(cookies).set(APP).send({}).expect(401);
    });
  });
});

describe('token cookies over plain http', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuth('tokens_http', { PUBLIC_URL: 'http://localhost:8443' });
  });
  afterAll(() => h.close());

  it('are Secure only when the trusted proxy says the browser came over https', async () => {
    const signUp = async (email: string, proto?: string) => {
      const token = (await h.mailedLink(email)).searchParams.get('token')!;
      const req = h.http().post('/setNewUser').set(APP);
      return setCookies(
        await (proto ? req.set('x-forwarded-proto', proto) : req).send({ email, name: 'P', token }),
      );
    };
    const plain = await signUp('plain@uni.test');
    const behindTls = await signUp('tls@uni.test', 'https');
    for (const name of ['accessToken', 'refreshToken', 'signedIn']) {
      expect(plain.get(name)?.secure).toBeFalsy();
      expect(behindTls.get(name)?.secure).toBe(true);
    }
  });
});
