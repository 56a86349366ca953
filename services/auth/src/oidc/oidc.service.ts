import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@uis/kit';
import { email as emailField, type SignInProvider, type SignInProviderError } from '@uis/proto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { Issuer, custom, generators, type Client } from 'openid-client';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { MagicLinksService } from '../sign-in/magic-links.service';
import type { OidcProvider } from './oidc-providers';
import { PendingSignInSeal } from './oidc-state';

/** Where providers send the browser back (proto's oidcCallback). */
export const OIDC_CALLBACK_PATH = '/oidc/callback';
/** The pending sign-in's cookie, sent back only to the callback. */
export const OIDC_COOKIE = 'uis_oidc';
/** How long a sign-in at the provider may take (typing a password, a second factor). */
export const OIDC_PENDING_MS = 10 * 60 * 1000;
/** The provider's clock may be this far off ours when its ID token is checked. */
const CLOCK_TOLERANCE_S = 30;

/** Where the browser goes next, and the Set-Cookie header that goes with it. */
export interface BrowserStep {
  location: string;
  cookie: string;
}

export type OidcCallbackQuery = Partial<
  Record<'state' | 'code' | 'error' | 'error_description' | 'iss', string>
>;

/**
 * Sign-in with OpenID Connect providers: the authorization code flow with PKCE, the state, nonce
 * and code verifier in a signed cookie (auth keeps nothing between the two steps). A provider's
 * verified e-mail becomes what a magic link is: a single-use token for the app's /authcallback, so
 * from there on one flow serves both (an existing account signs in, the same user however they
 * came; a new one signs up under the researcher policy).
 */
@Injectable()
export class OidcService {
  private readonly seal: PendingSignInSeal;
  /** Each provider's client, made from its discovery document once (again after a failure). */
  private readonly clients = new Map<string, Promise<Client>>();
  private readonly publicUrl: string;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly links: MagicLinksService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.seal = new PendingSignInSeal(config.JWT_SECRET);
    this.publicUrl = config.PUBLIC_URL.replace(/\/+$/, '');
  }

  providers(): SignInProvider[] {
    return this.config.oidcProviders.map(({ id, label }) => ({ id, label }));
  }

  /** To the provider's authorization endpoint, with a fresh state, nonce and PKCE challenge. */
  async start(providerId: string): Promise<BrowserStep> {
    const provider = this.provider(providerId);
    if (!provider) return this.failed('unknown');
    const client = await this.client(provider).catch(() => null);
    if (!client) return this.failed('unavailable');
    const pending = {
      provider: provider.id,
      state: generators.state(),
      nonce: generators.nonce(),
      verifier: generators.codeVerifier(),
      expiresAt: Date.now() + OIDC_PENDING_MS,
    };
    const location = client.authorizationUrl({
      scope: 'openid email profile',
      redirect_uri: this.redirectUri,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: generators.codeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { location, cookie: this.cookie(this.seal.seal(pending), OIDC_PENDING_MS) };
  }

  /**
   * Back from the provider: the state must be this browser's, the code is redeemed with its PKCE
   * verifier, the ID token's signature, issuer, audience, expiry and nonce are checked
   * (openid-client), and its e-mail must be verified. The cookie is cleared whatever happens.
   */
  async callback(query: OidcCallbackQuery, cookieHeader: string | undefined): Promise<BrowserStep> {
    const pending = this.seal.open(parseCookies(cookieHeader ?? '')[OIDC_COOKIE]);
    if (!pending || !query.state || query.state !== pending.state) return this.failed('state');
    if (query.error) return this.failed('denied');
    const provider = this.provider(pending.provider);
    if (!provider) return this.failed('unknown');
    const client = await this.client(provider).catch(() => null);
    if (!client) return this.failed('unavailable');
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.callback(this.redirectUri, query, {
        state: pending.state,
        nonce: pending.nonce,
        code_verifier: pending.verifier,
        response_type: 'code',
      });
      claims = tokens.claims();
      // Some providers put the e-mail in the userinfo answer only.
      if (claims.email === undefined || claims.email_verified === undefined) {
        claims = { ...(await client.userinfo(tokens)), ...claims };
      }
    } catch (err) {
      this.logger.warn({ err, provider: provider.id }, 'sign-in with a provider refused');
      return this.failed('token');
    }
    const address = emailField().safeParse(claims.email);
    // Only a verified address proves the person owns it: anything else could claim someone's account.
    if (claims.email_verified !== true || !address.success) return this.failed('unverified');
    const link = await this.links.mint(address.data);
    if (typeof claims.name === 'string' && claims.name.trim())
      link.searchParams.set('name', claims.name.trim());
    this.logger.info({ provider: provider.id }, 'signed in with a provider');
    return { location: link.toString(), cookie: this.cookie('', 0) };
  }

  private get redirectUri(): string {
    return `${this.publicUrl}${OIDC_CALLBACK_PATH}`;
  }

  private provider(id: string): OidcProvider | undefined {
    return this.config.oidcProviders.find((provider) => provider.id === id);
  }

  private client(provider: OidcProvider): Promise<Client> {
    let client = this.clients.get(provider.id);
    if (!client) {
      client = Issuer.discover(provider.issuer).then((issuer) => {
        const made = new issuer.Client({
          client_id: provider.clientId,
          client_secret: provider.clientSecret,
          redirect_uris: [this.redirectUri],
          response_types: ['code'],
        });
        made[custom.clock_tolerance] = CLOCK_TOLERANCE_S;
        return made;
      });
      this.clients.set(provider.id, client);
      client.catch((err: unknown) => {
        this.clients.delete(provider.id);
        this.logger.warn(
          { err, provider: provider.id, issuer: provider.issuer },
          'provider discovery failed',
        );
      });
    }
    return client;
  }

  /** Back to the login screen, which says why (SIGN_IN_PROVIDER_ERRORS). */
  private failed(why: SignInProviderError): BrowserStep {
    return {
      location: `${this.publicUrl}/login?${new URLSearchParams({ signInError: why }).toString()}`,
      cookie: this.cookie('', 0),
    };
  }

  private cookie(value: string, maxAgeMs: number): string {
    return serializeCookie(OIDC_COOKIE, value, {
      httpOnly: true,
      // Lax: sent on the provider's top-level redirect back, never on a cross-site subrequest.
      sameSite: 'lax',
      secure: this.publicUrl.startsWith('https:'),
      path: OIDC_CALLBACK_PATH,
      maxAge: Math.floor(maxAgeMs / 1000),
    });
  }
}
