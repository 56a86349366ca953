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
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** The env variable of provider `id`'s `part` (OIDC_<ID>_ISSUER: the id upper-cased, - as _). */
export const oidcVariable = (id: string, part: 'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET' | 'LABEL') =>
  `OIDC_${id.toUpperCase().replace(/-/g, '_')}_${part}`;

/**
 * The providers named in the environment: `OIDC_PROVIDERS=uni,keycloak` with OIDC_<ID>_ISSUER,
 * _CLIENT_ID, _CLIENT_SECRET and an optional _LABEL for each; Google by GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET alone (its issuer is known). Every mistake is reported at boot, as for any
 * other setting, naming the variable.
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
    providers.push({ id, label, issuer, clientId, clientSecret });
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
    });
  }
  if (new Set(providers.map((p) => p.id)).size !== providers.length) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_PROVIDERS'], message: 'names a provider twice' });
  }
  return providers;
}
