import { email as emailField } from '@uis/proto';
import { GOOGLE_OWN_DOMAINS, type OidcProvider } from './oidc-providers';

export type Claims = Record<string, unknown>;

/**
 * Who signed in at a provider: the ID token's issuer and subject, which the provider never gives
 * to another person (OpenID Connect Core 5.7), unlike an e-mail. For Microsoft Entra ID the issuer
 * names the tenant and `sub` is the person for this app: Microsoft's own advice for a key.
 */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
}

export const identityOf = (idToken: Claims): ProviderIdentity => ({
  issuer: String(idToken.iss),
  subject: String(idToken.sub),
});

/**
 * The claims the e-mail is read from, all of it from one source: the ID token's, or only when it
 * carries no e-mail, the userinfo answer's (asked for then), which must be about the same subject.
 * Never a mix: an e-mail from one and a verified flag from the other vouch for nothing.
 */
export async function emailSourceOf(idToken: Claims, userinfo: () => Promise<Claims>): Promise<Claims> {
  if (idToken.email !== undefined) return idToken;
  const answer = await userinfo();
  if (answer.sub !== idToken.sub) throw new Error('the userinfo answer is about another subject');
  return answer;
}

/**
 * Whether the provider says the address is its user's: `email_verified`, or from Microsoft Entra
 * ID, which sends none, its optional claim `xms_edov` (the e-mail's domain is verified by the
 * user's tenant). Documented as a boolean; its string forms are read alike.
 */
export function isVouchedFor(claims: Claims): boolean {
  if (claims.email_verified !== undefined) return claims.email_verified === true;
  return claims.xms_edov === true || claims.xms_edov === 'true' || claims.xms_edov === '1';
}

/** The e-mail as an account's (trimmed, lower-cased) when it is an address the provider vouches for. */
export function vouchedEmailOf(claims: Claims): string | null {
  const address = emailField().safeParse(claims.email);
  return address.success && isVouchedFor(claims) ? address.data : null;
}

/**
 * Whether the provider speaks for this address: its domain is one of the provider's. Beyond
 * Gmail's, Google is the authority only for domains it hosts (Google Workspace, named by the `hd`
 * claim); a consumer Google account registered with such an address once is not.
 */
export function isTrustedFor(provider: OidcProvider, address: string, claims: Claims): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const listed = provider.emailDomains === '*' || provider.emailDomains.includes(domain);
  if (!listed) return false;
  return provider.id !== 'google' || GOOGLE_OWN_DOMAINS.includes(domain) || claims.hd === domain;
}
