import { ERROR_CODES, OIDC_PROVIDER_ID_PATTERN } from '@uis/proto';
import { OIDC_COOKIE } from '../src/oidc/oidc.service';
import { PUBLIC_URL, bearer, startAuth, type AuthHarness } from './auth-harness';
import {
  CookieJar,
  providerEnv,
  signInAtProvider,
  startOidcProvider,
  type OidcTestProvider,
} from './support/oidc-test-provider';

/**
 * Sign-in with an OpenID Connect provider, against a real one (oidc-provider in its own process):
 * auth's two steps driven as a browser drives them, the provider's login form filled in.
 */
let h: AuthHarness;
let provider: OidcTestProvider;
const ACCOUNTS = {
  ada: { email: 'Ada.Lovelace@lab.test', email_verified: true, name: 'Ada Lovelace' },
  pat: { email: 'pat@people.test', email_verified: true, name: 'Pat Participant' },
  eve: { email: 'eve@people.test', email_verified: false, name: 'Eve Unverified' },
};

beforeAll(async () => {
  provider = await startOidcProvider(`${PUBLIC_URL}/oidc/callback`, ACCOUNTS);
  h = await startAuth('oidc', {
    OIDC_PROVIDERS: 'uni,down',
    ...providerEnv('uni', provider),
    // A provider that cannot be reached: nothing listens on port 9 of this machine.
    OIDC_DOWN_ISSUER: 'http://127.0.0.1:9',
    OIDC_DOWN_CLIENT_ID: 'x',
    OIDC_DOWN_CLIENT_SECRET: 'y',
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await provider?.stop();
});

/** /oidc/start as the login button opens it: the provider's URL and the browser's cookies. */
const start = async (id = 'uni') => {
  const res = await h.http().get('/oidc/start').query({ provider: id }).expect(302);
  expect(res.headers['cache-control']).toBe('no-store');
  const jar = new CookieJar();
  jar.take(res.headers['set-cookie']);
  return { location: new URL(res.headers.location!), jar, setCookie: String(res.headers['set-cookie']) };
};

/** Back at auth's callback with what the provider sent: where the browser goes next. */
const callback = async (at: URL, jar: CookieJar) => {
  const res = await h.http().get(`/oidc/callback${at.search}`).set('cookie', jar.header()).expect(302);
  // The pending sign-in is spent whatever happened.
  expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${OIDC_COOKIE}=;.*Max-Age=0`));
  return new URL(res.headers.location!);
};

const signInWith = async (login: string) => {
  const { location, jar } = await start();
  return callback(await signInAtProvider(location.toString(), login), jar);
};

const refusedWith = (landing: URL) => {
  expect(`${landing.origin}${landing.pathname}`).toBe(`${PUBLIC_URL}/login`);
  return landing.searchParams.get('signInError');
};

describe('sign-in with an OpenID Connect provider', () => {
  it('lists the configured providers for the login screen', async () => {
    const res = await h.http().get('/getSignInProviders').expect(200);
    expect(res.body.res).toEqual({
      providers: [
        { id: 'uni', label: 'Test University' },
        { id: 'down', label: 'Sign in with down' },
      ],
    });
    expect(OIDC_PROVIDER_ID_PATTERN.test('uni')).toBe(true);
  });

  it('starts the code flow with PKCE, a state and a nonce, kept in a signed cookie for the callback only', async () => {
    const { location, setCookie } = await start();
    expect(location.origin).toBe(provider.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'uis-test',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${PUBLIC_URL}/oidc/callback`,
      code_challenge_method: 'S256',
    });
    for (const param of ['state', 'nonce', 'code_challenge']) {
      expect(location.searchParams.get(param)!.length).toBeGreaterThanOrEqual(43);
    }
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Path=\/oidc\/callback/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Secure/);
  });

  it('signs an existing account in as the same user, whatever case the provider spells the e-mail in', async () => {
    const byLink = await h.signUp('ada.lovelace@lab.test', 'Ada', 'researcher');
    const landing = await signInWith('ada');
    expect(`${landing.origin}${landing.pathname}`).toBe(`${PUBLIC_URL}/authcallback`);
    expect(landing.searchParams.get('email')).toBe('ada.lovelace@lab.test');
    expect(landing.searchParams.get('name')).toBe('Ada Lovelace');
    const token = landing.searchParams.get('token')!;
    const tokens = await h
      .http()
      .get('/getUserTokens')
      .query({ email: 'ada.lovelace@lab.test', token })
      .expect(200);
    const [viaLink, viaProvider] = await Promise.all(
      [byLink.accessToken, tokens.body.res.accessToken as string].map(async (access) => {
        const res = await h.http().get('/getUserFromToken').set(bearer(access)).expect(200);
        return (res.body as { res: { user: { id: string; type: string } } }).res.user;
      }),
    );
    expect(viaProvider).toEqual(viaLink);
    expect(viaProvider?.type).toBe('researcher');
    // The token is single-use, as a magic link's is.
    await h.http().get('/getUserTokens').query({ email: 'ada.lovelace@lab.test', token }).expect(401);
  });

  it('lets a new person sign up with the token, under the researcher policy', async () => {
    const landing = await signInWith('pat');
    const email = landing.searchParams.get('email')!;
    const token = landing.searchParams.get('token')!;
    const first = await h.http().get('/getUserTokens').query({ email, token }).expect(404);
    expect(first.body.res.code).toBe(ERROR_CODES.SIGNUP_REQUIRED);
    // pat@people.test is not in RESEARCHER_EMAILS (@lab.test): a participant, not a researcher.
    await h.http().post('/setNewUser').send({ email, name: 'Pat', type: 'researcher', token }).expect(403);
    const res = await h
      .http()
      .post('/setNewUser')
      .send({ email, name: 'Pat', type: 'participant', token })
      .expect(200);
    expect(res.body.res.accessToken).toEqual(expect.any(String));
  });

  it('refuses an e-mail the provider has not verified', async () => {
    expect(refusedWith(await signInWith('eve'))).toBe('unverified');
  });

  it('refuses a state that is not this browser’s, and a callback without the cookie', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'pat');
    const forged = new URL(back);
    forged.searchParams.set('state', 'someone-elses-state');
    expect(refusedWith(await callback(forged, jar))).toBe('state');
    expect(refusedWith(await callback(back, new CookieJar()))).toBe('state');
  });

  it('refuses a cookie changed by hand', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'pat');
    const [name, value] = jar.header().split('=');
    const [body, mac] = value!.split('.');
    const pending = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const changed = Buffer.from(JSON.stringify({ ...pending, provider: 'down' })).toString('base64url');
    const tampered = new CookieJar();
    tampered.take(`${name}=${changed}.${mac}`);
    expect(refusedWith(await callback(back, tampered))).toBe('state');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const { location, jar } = await start();
    location.searchParams.set('nonce', 'a-nonce-of-the-attacker-s-choosing-0123456789');
    expect(refusedWith(await callback(await signInAtProvider(location.toString(), 'pat'), jar))).toBe(
      'token',
    );
  });

  it('refuses a code redeemed twice, and says so when the person cancels at the provider', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'pat');
    const again = new CookieJar();
    again.take(jar.header());
    expect((await callback(back, jar)).pathname).toBe('/authcallback');
    expect(refusedWith(await callback(back, again))).toBe('token');

    const cancelled = await start();
    const aborted = await signInAtProvider(cancelled.location.toString(), 'pat', { cancel: true });
    expect(aborted.searchParams.get('error')).toBe('access_denied');
    expect(refusedWith(await callback(aborted, cancelled.jar))).toBe('denied');
  });

  it('sends the browser back with a reason for an unknown or unreachable provider, and refuses a bad id', async () => {
    expect(
      refusedWith(
        new URL(
          (await h.http().get('/oidc/start').query({ provider: 'nope' }).expect(302)).headers.location!,
        ),
      ),
    ).toBe('unknown');
    expect(
      refusedWith(
        new URL(
          (await h.http().get('/oidc/start').query({ provider: 'down' }).expect(302)).headers.location!,
        ),
      ),
    ).toBe('unavailable');
    const bad = await h.http().get('/oidc/start').query({ provider: '../admin' }).expect(400);
    expect(bad.body.res.message).toBe(
      'provider: must be a provider id: lowercase letters, digits and hyphens',
    );
  });
});

describe('provider settings are checked at boot', () => {
  it.each([
    [{ OIDC_PROVIDERS: 'uni' }, 'OIDC_UNI_ISSUER: must be the issuer’s URL'],
    [{ OIDC_PROVIDERS: 'uni', OIDC_UNI_ISSUER: 'https://login.uni.test' }, 'OIDC_UNI_CLIENT_ID: is required'],
    [{ OIDC_PROVIDERS: 'Uni Login' }, 'is not a provider id'],
    [{ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' }, 'GOOGLE_CLIENT_SECRET: is required'],
  ])('%j is refused', async (env, message) => {
    await expect(startAuth('oidc-boot', env)).rejects.toThrow(message);
  });
});
