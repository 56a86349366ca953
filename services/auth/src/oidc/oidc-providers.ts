import { OIDC_PROVIDER_ID_PATTERN } from '@uis/proto';
import type { z } from 'zod';

/** An OpenID Connect provider this deployment signs in with. */
export interface OidcProvider {
  id: string;
  /** The login button's text. */
  label: string;
  /** Its issuer URL: the discovery document is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The e-mail domains this provider is trusted for: a new account of it may sign in with a
   * verified e-mail of these at once; any other address is first proven by a mailed link. `*`: any.
   */
  emailDomains: EmailDomains;
}

export type EmailDomains = '*' | readonly string[];

export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Google is the authority for its own mail only, unless GOOGLE_EMAIL_DOMAINS names others. */
export const GOOGLE_OWN_DOMAINS: readonly string[] = ['gmail.com', 'googlemail.com'];

/** The env variable of provider `id`'s `part` (OIDC_<ID>_ISSUER: the id upper-cased, - as _). */
export const oidcVariable = (
  id: string,
  part: 'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET' | 'LABEL' | 'EMAIL_DOMAINS',
) => `OIDC_${id.toUpperCase().replace(/-/g, '_')}_${part}`;

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * An EMAIL_DOMAINS setting (`uni.edu,staff.uni.edu`, or `*` alone for any domain): each domain is
 * matched exactly, so subdomains are listed too. Unset: `fallback`. A bad entry is reported.
 */
function emailDomainsOf(
  setting: string,
  variable: string,
  ctx: z.RefinementCtx,
  fallback: EmailDomains = [],
): EmailDomains {
  const entries = setting
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (!entries.length) return fallback;
  const report = (message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
  if (entries.includes('*')) {
    if (entries.length > 1) report('`*` (any domain) stands alone');
    return '*';
  }
  for (const entry of entries.filter((entry) => !DOMAIN.test(entry)))
    report(`"${entry}" is not an e-mail domain: list domains (uni.edu,staff.uni.edu), or * for any`);
  return entries;
}

/**
 * The providers named in the environment: `OIDC_PROVIDERS=uni,keycloak` with OIDC_<ID>_ISSUER,
 * _CLIENT_ID, _CLIENT_SECRET and optional _LABEL and _EMAIL_DOMAINS (none by default) for each;
 * Google by GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (its issuer is known), trusted for
 * GOOGLE_EMAIL_DOMAINS (Gmail's by default). Every mistake is reported at boot, as for any other
 * setting, naming the variable.
 */
export function oidcProvidersOf(env: Record<string, unknown>, ctx: z.RefinementCtx): OidcProvider[] {
  const text = (name: string): string => (typeof env[name] === 'string' ? env[name].trim() : '');
  const missing = (name: string) => ctx.addIssue({ code: 'custom', path: [name], message: 'is required' });
  const providers: OidcProvider[] = [];
  const ids = text('OIDC_PROVIDERS')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  for (const id of ids) {
    if (!OIDC_PROVIDER_ID_PATTERN.test(id) || id === 'google') {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_PROVIDERS'],
        message: `"${id}" is not a provider id: lowercase letters, digits and hyphens (and not "google": GOOGLE_CLIENT_ID names it)`,
      });
      continue;
    }
    const issuer = text(oidcVariable(id, 'ISSUER'));
    const clientId = text(oidcVariable(id, 'CLIENT_ID'));
    const clientSecret = text(oidcVariable(id, 'CLIENT_SECRET'));
    if (!URL.canParse(issuer)) {
      ctx.addIssue({
        code: 'custom',
        path: [oidcVariable(id, 'ISSUER')],
        message: 'must be the issuer’s URL',
      });
    }
    if (!clientId) missing(oidcVariable(id, 'CLIENT_ID'));
    if (!clientSecret) missing(oidcVariable(id, 'CLIENT_SECRET'));
    const label = text(oidcVariable(id, 'LABEL')) || `Sign in with ${id}`;
    const domainsVariable = oidcVariable(id, 'EMAIL_DOMAINS');
    const emailDomains = emailDomainsOf(text(domainsVariable), domainsVariable, ctx);
    providers.push({ id, label, issuer, clientId, clientSecret, emailDomains });
  }
  const googleId = text('GOOGLE_CLIENT_ID');
  if (googleId) {
    const clientSecret = text('GOOGLE_CLIENT_SECRET');
    if (!clientSecret) missing('GOOGLE_CLIENT_SECRET');
    providers.unshift({
      id: 'google',
      label: 'Sign in with Google',
      issuer: GOOGLE_ISSUER,
      clientId: googleId,
      clientSecret,
      emailDomains: emailDomainsOf(
        text('GOOGLE_EMAIL_DOMAINS'),
        'GOOGLE_EMAIL_DOMAINS',
        ctx,
        GOOGLE_OWN_DOMAINS,
      ),
    });
  }
  if (new Set(providers.map((p) => p.id)).size !== providers.length) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_PROVIDERS'], message: 'names a provider twice' });
  }
  return providers;
}
