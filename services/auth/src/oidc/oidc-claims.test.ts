import { z } from 'zod';
import { emailSourceOf, isTrustedFor, vouchedEmailOf } from './oidc-claims';
import { oidcProvidersOf, type OidcProvider } from './oidc-providers';

/** The providers an environment configures, as auth's config reads them. */
const providersOf = (env: Record<string, string>): OidcProvider[] =>
  z
    .object({})
    .loose()
    .transform((parsed, ctx) => oidcProvidersOf(parsed, ctx))
    .parse(env);

const google = (domains?: string) =>
  providersOf({
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secret',
    ...(domains === undefined ? {} : { GOOGLE_EMAIL_DOMAINS: domains }),
  })[0]!;

const uni = (domains?: string) =>
  providersOf({
    OIDC_PROVIDERS: 'uni',
    OIDC_UNI_ISSUER: 'https://login.uni.edu',
    OIDC_UNI_CLIENT_ID: 'id',
    OIDC_UNI_CLIENT_SECRET: 'secret',
    ...(domains === undefined ? {} : { OIDC_UNI_EMAIL_DOMAINS: domains }),
  })[0]!;

describe('which e-mail domains a provider is trusted for', () => {
  it('trusts Google for Gmail only by default', () => {
    expect(google().emailDomains).toEqual(['gmail.com', 'googlemail.com']);
    expect(isTrustedFor(google(), 'ada@gmail.com', {})).toBe(true);
    expect(isTrustedFor(google(), 'ada@googlemail.com', {})).toBe(true);
    expect(isTrustedFor(google(), 'ada@uni.edu', { hd: 'uni.edu' })).toBe(false);
  });

  it('trusts Google for a listed domain only where it hosts it (Workspace: hd names the domain)', () => {
    const provider = google('uni.edu, gmail.com');
    expect(isTrustedFor(provider, 'ada@uni.edu', { hd: 'uni.edu' })).toBe(true);
    // A consumer Google account made with a university address: Google is no authority for it.
    expect(isTrustedFor(provider, 'ada@uni.edu', {})).toBe(false);
    expect(isTrustedFor(provider, 'ada@uni.edu', { hd: 'other.edu' })).toBe(false);
    expect(isTrustedFor(provider, 'ada@gmail.com', {})).toBe(true);
    expect(isTrustedFor(google('*'), 'ada@any.org', {})).toBe(false);
    expect(isTrustedFor(google('*'), 'ada@any.org', { hd: 'any.org' })).toBe(true);
  });

  it('trusts another provider for none by default, its listed domains exactly, or any with *', () => {
    expect(isTrustedFor(uni(), 'ada@uni.edu', {})).toBe(false);
    const provider = uni('Uni.edu,staff.uni.edu');
    expect(isTrustedFor(provider, 'ada@uni.edu', {})).toBe(true);
    expect(isTrustedFor(provider, 'ada@staff.uni.edu', {})).toBe(true);
    expect(isTrustedFor(provider, 'ada@students.uni.edu', {})).toBe(false);
    expect(isTrustedFor(provider, 'ada@evil-uni.edu', {})).toBe(false);
    expect(isTrustedFor(uni('*'), 'ada@anywhere.org', {})).toBe(true);
  });
});

describe('the e-mail a provider vouches for', () => {
  it('needs email_verified: true, or from Microsoft Entra ID (no email_verified) xms_edov: true', () => {
    expect(vouchedEmailOf({ email: ' Ada@Uni.edu ', email_verified: true })).toBe('ada@uni.edu');
    expect(vouchedEmailOf({ email: 'ada@uni.edu', email_verified: false })).toBeNull();
    expect(vouchedEmailOf({ email: 'ada@uni.edu', email_verified: 'true' })).toBeNull();
    expect(vouchedEmailOf({ email: 'ada@uni.edu' })).toBeNull();
    expect(vouchedEmailOf({ email: 'ada@uni.edu', xms_edov: true })).toBe('ada@uni.edu');
    expect(vouchedEmailOf({ email: 'ada@uni.edu', xms_edov: '1' })).toBe('ada@uni.edu');
    expect(vouchedEmailOf({ email: 'ada@uni.edu', xms_edov: false })).toBeNull();
    // email_verified, when sent, is the provider's word: xms_edov does not overrule it.
    expect(vouchedEmailOf({ email: 'ada@uni.edu', email_verified: false, xms_edov: true })).toBeNull();
    expect(vouchedEmailOf({ email: 'not an address', email_verified: true })).toBeNull();
  });

  it('comes from the ID token, or only when it has no e-mail, from userinfo about the same subject', async () => {
    const userinfo = jest.fn(() => Promise.resolve({ sub: 's1', email: 'b@uni.edu', email_verified: true }));
    const idToken = { sub: 's1', email: 'a@uni.edu' };
    // The ID token's e-mail without a flag is not made verified by userinfo's flag.
    const source = await emailSourceOf(idToken, userinfo);
    expect(source).toBe(idToken);
    expect(vouchedEmailOf(source)).toBeNull();
    expect(userinfo).not.toHaveBeenCalled();

    expect(vouchedEmailOf(await emailSourceOf({ sub: 's1' }, userinfo))).toBe('b@uni.edu');
    await expect(emailSourceOf({ sub: 's2' }, userinfo)).rejects.toThrow('another subject');
  });
});
