import { recipientsOf } from '@uis/mailer/testing';
import { ERROR_CODES, OIDC_PROVIDER_ID_PATTERN } from '@uis/proto';
import { Client } from 'pg';
import { OIDC_COOKIE } from '../src/oidc/oidc.service';
import { bearer } from '@uis/kit/testing';
import { PUBLIC_URL, startAuth, type AuthHarness } from './auth-harness';
import {
  CookieJar,
  providerEnv,
  signInAtProvider,
  startOidcProvider,
  type OidcTestProvider,
  type TestAccount,
} from './support/oidc-test-provider';

/**
 * Sign-in with an OpenID Connect provider, against a real one (oidc-provider in its own process):
 * auth's two steps driven as a browser drives them, the provider's login form filled in. The
 * provider is trusted for lab.test and uni.test: any other address is proven by a mailed link.
 */
let h: AuthHarness;
let provider: OidcTestProvider;
const ACCOUNTS: Record<string, TestAccount> = {
  ada: { email: 'Ada.Lovelace@lab.test', email_verified: true, name: 'Ada Lovelace' },
  sam: { email: 'sam@uni.test', email_verified: true, name: 'Sam Student' },
  rhea: { email: 'rhea@lab.test', email_verified: true, name: 'Rhea Renamed' },
  pat: { email: 'pat@people.test', email_verified: true, name: 'Pat Participant' },
  eve: { email: 'eve@people.test', email_verified: false, name: 'Eve Unverified' },
  // Accounts of someone who claims addresses that are not theirs, at a provider that lets them.
  mallory: { email: 'victim@people.test', email_verified: true, name: 'Mallory' },
  squatter: { email: 'newcomer@people.test', email_verified: true, name: 'Squatter' },
  busy: { email: 'busy@people.test', email_verified: true, name: 'Busy' },
  // An ID token without the verified flag, a userinfo answer with it: read together, it would pass.
  mixed: {
    email: 'mixed@lab.test',
    name: 'Mixed Sources',
    id_token: { email_verified: null },
    userinfo: { email_verified: true },
  },
  // The e-mail only in the userinfo answer.
  infoonly: {
    email: 'info@lab.test',
    email_verified: true,
    name: 'Info Only',
    id_token: { email: null, email_verified: null },
  },
  // Microsoft Entra ID: no email_verified; the optional claim xms_edov says whether the tenant owns the domain.
  entra: { email: 'entra@lab.test', xms_edov: true, name: 'Entra Member' },
  entraguest: { email: 'guest@lab.test', xms_edov: false, name: 'Entra Guest' },
  entrabare: { email: 'bare@lab.test', name: 'Entra Without Optional Claims' },
};

beforeAll(async () => {
  provider = await startOidcProvider(`${PUBLIC_URL}/oidc/callback`, ACCOUNTS);
  h = await startAuth('oidc', {
    OIDC_PROVIDERS: 'uni,down',
    ...providerEnv('uni', provider),
    OIDC_UNI_EMAIL_DOMAINS: 'lab.test, UNI.test',
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
const start = async (id = 'uni', jar = new CookieJar()) => {
  const res = await h.http().get('/oidc/start').query({ provider: id }).expect(302);
  expect(res.headers['cache-control']).toBe('no-store');
  jar.take(res.headers['set-cookie']);
  return { location: new URL(res.headers.location!), jar, setCookie: String(res.headers['set-cookie']) };
};

/** Back at auth's callback (from the provider, or a mailed link): where the browser goes next. */
const callback = async (at: URL, jar: CookieJar) => {
  const res = await h.http().get(`/oidc/callback${at.search}`).set('cookie', jar.header()).expect(302);
  const landing = new URL(res.headers.location!);
  const setCookie = String(res.headers['set-cookie']);
  if (landing.searchParams.get('signInError') === 'linkSent') {
    // The proof waits in this browser for as long as the mailed link works.
    expect(setCookie).toMatch(new RegExp(`^${OIDC_COOKIE}=[^;]+;.*Max-Age=900;.*Path=/oidc/callback`));
  } else {
    // The pending sign-in is spent whatever happened.
    expect(setCookie).toMatch(new RegExp(`^${OIDC_COOKIE}=;.*Max-Age=0`));
  }
  jar.take(res.headers['set-cookie']);
  return landing;
};

const signInWith = async (login: string, jar = new CookieJar()) => {
  const { location } = await start('uni', jar);
  return callback(await signInAtProvider(location.toString(), login), jar);
};

const refusedWith = (landing: URL) => {
  expect(`${landing.origin}${landing.pathname}`).toBe(`${PUBLIC_URL}/login`);
  return landing.searchParams.get('signInError');
};

/** The app's /authcallback with a sign-in token: its e-mail and token. */
const tokenOf = (landing: URL) => {
  expect(`${landing.origin}${landing.pathname}`).toBe(`${PUBLIC_URL}/authcallback`);
  return { email: landing.searchParams.get('email')!, token: landing.searchParams.get('token')! };
};

/** Who the /authcallback page signs in: the user of the tokens its link gives. */
const userOf = async (landing: URL) => {
  const tokens = await h.http().get('/getUserTokens').query(tokenOf(landing)).expect(200);
  const me = await h
    .http()
    .get('/getUserFromToken')
    .set(bearer(tokens.body.res.accessToken as string))
    .expect(200);
  return (me.body as { res: { user: { id: string; email: string; type: string } } }).res.user;
};

/** The sign-in link mailed to `email` after `before` mails: back to auth's callback. */
const proofMailedTo = async (email: string, before: number) => {
  const mail = await h.smtp.waitForMail(
    (m) => h.smtp.mails.indexOf(m) >= before && recipientsOf(m).includes(email),
  );
  return new URL(/https?:\/\/\S+\/oidc\/callback\?\S+/.exec(mail.text ?? '')![0]);
};

const linkedAccounts = async (email: string) => {
  const client = new Client({ connectionString: h.db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ subject: string }>(
      'SELECT i.subject FROM auth.provider_identities i JOIN auth.users u ON u.id = i.user_id WHERE u.email = $1',
      [email],
    );
    return rows.map((row) => row.subject);
  } finally {
    await client.end();
  }
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

  it('signs an existing account of a trusted domain in as the same user, whatever case the e-mail is in, and links it', async () => {
    const byLink = await h.signUp('ada.lovelace@lab.test', 'Ada', 'researcher');
    const landing = await signInWith('ada');
    expect(landing.searchParams.get('email')).toBe('ada.lovelace@lab.test');
    expect(landing.searchParams.get('name')).toBe('Ada Lovelace');
    const { token } = tokenOf(landing);
    const viaProvider = await userOf(landing);
    const me = await h.http().get('/getUserFromToken').set(byLink.headers).expect(200);
    expect(viaProvider).toEqual(me.body.res.user);
    expect(viaProvider.type).toBe('researcher');
    // The token is single-use, as a magic link's is.
    await h.http().get('/getUserTokens').query({ email: 'ada.lovelace@lab.test', token }).expect(401);
    expect(await linkedAccounts('ada.lovelace@lab.test')).toEqual(['ada']);
  });

  it('lets a new person of a trusted domain sign up with the token, under the researcher policy', async () => {
    const landing = await signInWith('sam');
    const { email, token } = tokenOf(landing);
    expect(email).toBe('sam@uni.test');
    const first = await h.http().get('/getUserTokens').query({ email, token }).expect(404);
    expect(first.body.res.code).toBe(ERROR_CODES.SIGNUP_REQUIRED);
    // sam@uni.test is not in RESEARCHER_EMAILS (@lab.test): a participant, not a researcher.
    await h.http().post('/setNewUser').send({ email, name: 'Sam', type: 'researcher', token }).expect(403);
    const res = await h
      .http()
      .post('/setNewUser')
      .send({ email, name: 'Sam', type: 'participant', token })
      .expect(200);
    expect(res.body.res.accessToken).toEqual(expect.any(String));
    expect(await linkedAccounts('sam@uni.test')).toEqual(['sam']);
  });

  it('signs a returning account in by issuer and subject, whatever e-mail the provider sends now', async () => {
    const first = tokenOf(await signInWith('rhea'));
    const signedUp = await h
      .http()
      .post('/setNewUser')
      .send({ ...first, name: 'Rhea', type: 'researcher' })
      .expect(200);
    const me = await h.http().get('/getUserFromToken').set(bearer(signedUp.body.res.accessToken)).expect(200);
    // Their e-mail at the provider changes to one of a domain it is not trusted for, unverified even.
    await provider.setAccount('rhea', { email: 'rhea@elsewhere.test', email_verified: false, name: 'R' });
    const before = h.smtp.mails.length;
    const again = await signInWith('rhea');
    expect(again.searchParams.get('email')).toBe('rhea@lab.test');
    expect(await userOf(again)).toEqual(me.body.res.user);
    // Another account with rhea's old address signs nobody in as rhea: it is someone new there.
    await provider.setAccount('rhea2', { email: 'rhea@lab.test', email_verified: false, name: 'R2' });
    expect(refusedWith(await signInWith('rhea2'))).toBe('unverified');
    expect(h.smtp.mails.length).toBe(before);
  });

  it('mails a link instead to an address of a domain the provider is not trusted for; followed in this browser, it signs up and links', async () => {
    const jar = new CookieJar();
    const before = h.smtp.mails.length;
    const landing = await signInWith('pat', jar);
    expect(refusedWith(landing)).toBe('linkSent');
    const mailed = await proofMailedTo('pat@people.test', before);
    expect(`${mailed.origin}${mailed.pathname}`).toBe(`${PUBLIC_URL}/oidc/callback`);

    const proven = await callback(mailed, jar);
    const { email, token } = tokenOf(proven);
    expect(email).toBe('pat@people.test');
    expect(proven.searchParams.get('name')).toBe('Pat Participant');
    await h.http().get('/getUserTokens').query({ email, token }).expect(404);
    await h.http().post('/setNewUser').send({ email, token, name: 'Pat', type: 'participant' }).expect(200);
    expect(await linkedAccounts('pat@people.test')).toEqual(['pat']);
    // The mailed link worked once; the account now signs straight in, no mail.
    expect(refusedWith(await callback(mailed, jar))).toBe('state');
    const next = await signInWith('pat');
    expect((await userOf(next)).email).toBe('pat@people.test');
    expect(h.smtp.mails.length).toBe(before + 1);
  });

  it('never signs an account into someone else’s account by an address it only claims: the owner gets the link, and following it links nothing', async () => {
    const victim = await h.signUp('victim@people.test', 'Victim');
    const victimUser = (await h.http().get('/getUserFromToken').set(victim.headers)).body.res.user as {
      id: string;
    };
    const attacker = new CookieJar();
    const before = h.smtp.mails.length;
    const landing = await signInWith('mallory', attacker);
    expect(refusedWith(landing)).toBe('linkSent');
    expect(landing.searchParams.get('token')).toBeNull();

    // The attacker cannot use their pending proof with a link of an address they do own.
    await h.signUp('mallory@evil.test', 'Mallory');
    const own = await h.mailedLink('mallory@evil.test');
    const pending = JSON.parse(
      Buffer.from(attacker.header().split('=')[1]!.split('.')[0]!, 'base64url').toString(),
    ) as { state: string };
    const forged = new URL(`${PUBLIC_URL}/oidc/callback`);
    forged.search = new URLSearchParams({
      state: pending.state,
      code: own.searchParams.get('token')!,
    }).toString();
    expect((await userOf(await callback(forged, attacker))).email).toBe('mallory@evil.test');

    // The victim opens the mail they did not ask for, in their own browser: it signs only them in.
    const mailed = await proofMailedTo('victim@people.test', before);
    expect((await userOf(await callback(mailed, new CookieJar()))).id).toBe(victimUser.id);
    expect(await linkedAccounts('victim@people.test')).toEqual([]);
    expect(await linkedAccounts('mallory@evil.test')).toEqual([]);
    // So the attacker's account is still a stranger: another link to the victim, nothing for them.
    expect(refusedWith(await signInWith('mallory'))).toBe('linkSent');
  });

  it('makes no account for an address an untrusted provider claims (no pre-account takeover)', async () => {
    const before = h.smtp.mails.length;
    const landing = await signInWith('squatter');
    expect(refusedWith(landing)).toBe('linkSent');
    expect(landing.searchParams.get('token')).toBeNull();
    await proofMailedTo('newcomer@people.test', before);
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    const { rows } = await client.query("SELECT 1 FROM auth.users WHERE email = 'newcomer@people.test'");
    await client.end();
    expect(rows).toEqual([]);
  });

  it('says so when the inbox had its sign-in links already', async () => {
    for (let i = 0; i < 5; i++) await h.mailedLink('busy@people.test');
    expect(refusedWith(await signInWith('busy'))).toBe('tooMany');
  });

  it('refuses an e-mail the provider has not verified', async () => {
    expect(refusedWith(await signInWith('eve'))).toBe('unverified');
  });

  it('reads the e-mail and its verified flag from one source, never a mix of the ID token and userinfo', async () => {
    expect(refusedWith(await signInWith('mixed'))).toBe('unverified');
    // No e-mail in the ID token: all of it from the userinfo answer (about the same subject).
    expect(tokenOf(await signInWith('infoonly')).email).toBe('info@lab.test');
  });

  it('takes Microsoft Entra ID’s xms_edov for the verified flag it does not send', async () => {
    expect(tokenOf(await signInWith('entra')).email).toBe('entra@lab.test');
    expect(refusedWith(await signInWith('entraguest'))).toBe('unverified');
    expect(refusedWith(await signInWith('entrabare'))).toBe('unverified');
  });

  it('refuses a state that is not this browser’s, and a callback without the cookie', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'ada');
    const forged = new URL(back);
    forged.searchParams.set('state', 'someone-elses-state');
    expect(refusedWith(await callback(forged, jar))).toBe('state');
    expect(refusedWith(await callback(back, new CookieJar()))).toBe('state');
  });

  it('refuses a cookie changed by hand', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'ada');
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
    expect(refusedWith(await callback(await signInAtProvider(location.toString(), 'ada'), jar))).toBe(
      'token',
    );
  });

  it('refuses a code redeemed twice, and says so when the person cancels at the provider', async () => {
    const { location, jar } = await start();
    const back = await signInAtProvider(location.toString(), 'ada');
    const again = new CookieJar();
    again.take(jar.header());
    expect((await callback(back, jar)).pathname).toBe('/authcallback');
    expect(refusedWith(await callback(back, again))).toBe('token');

    const cancelled = await start();
    const aborted = await signInAtProvider(cancelled.location.toString(), 'ada', { cancel: true });
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

const UNI = {
  OIDC_PROVIDERS: 'uni',
  OIDC_UNI_ISSUER: 'https://login.uni.test',
  OIDC_UNI_CLIENT_ID: 'x',
  OIDC_UNI_CLIENT_SECRET: 'y',
};

describe('provider settings are checked at boot', () => {
  it.each([
    [{ OIDC_PROVIDERS: 'uni' }, 'OIDC_UNI_ISSUER: must be the issuer’s URL'],
    [{ OIDC_PROVIDERS: 'uni', OIDC_UNI_ISSUER: 'https://login.uni.test' }, 'OIDC_UNI_CLIENT_ID: is required'],
    [{ OIDC_PROVIDERS: 'Uni Login' }, 'is not a provider id'],
    [{ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' }, 'GOOGLE_CLIENT_SECRET: is required'],
    [
      { ...UNI, OIDC_UNI_EMAIL_DOMAINS: '@uni.test' },
      'OIDC_UNI_EMAIL_DOMAINS: "@uni.test" is not an e-mail domain',
    ],
    [
      { ...UNI, OIDC_UNI_EMAIL_DOMAINS: 'uni.test,*' },
      'OIDC_UNI_EMAIL_DOMAINS: `*` (any domain) stands alone',
    ],
    [
      { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', GOOGLE_EMAIL_DOMAINS: 'uni edu' },
      'GOOGLE_EMAIL_DOMAINS: "uni edu" is not an e-mail domain',
    ],
  ])('%j is refused', async (env, message) => {
    await expect(startAuth('oidc-boot', env)).rejects.toThrow(message);
  });
});
