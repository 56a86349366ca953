import { Inject, Injectable } from '@nestjs/common';
import { AppError, LOGGER, type Logger } from '@uis/kit';
import type { SignInProvider, SignInProviderMessage } from '@uis/proto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { Issuer, custom, generators, type Client } from 'openid-client';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { MagicLinksService } from '../sign-in/magic-links.service';
import { UsersRepository } from '../users/users.repository';
import { ProviderIdentitiesRepository } from './provider-identities.repository';
import {
  emailSourceOf,
  identityOf,
  isTrustedFor,
  vouchedEmailOf,
  type Claims,
  type ProviderIdentity,
} from './oidc-claims';
import type { OidcProvider } from './oidc-providers';
import { PendingSignInSeal, type Pending, type PendingProof } from './oidc-state';

/** Where providers send the browser back (proto's oidcCallback), and where a mailed proof leads. */
export const OIDC_CALLBACK_PATH = '/oidc/callback';
/** The pending sign-in's (or proof's) cookie, sent back only to the callback. */
export const OIDC_COOKIE = 'uis_oidc';
/** How long a sign-in at the provider may take (typing a password, a second factor). */
export const OIDC_PENDING_MS = 10 * 60 * 1000;
/** A mailed proof's state: never a provider's (ours are base64url, without a dot). */
export const PROOF_STATE_PREFIX = 'proof.';
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

/** What the provider said, checked: who signed in there, and the claims its e-mail is read from. */
interface ProviderAnswer {
  identity: ProviderIdentity;
  claims: Claims;
}

/**
 * Sign-in with OpenID Connect providers: the authorization code flow with PKCE, the state, nonce
 * and code verifier in a signed cookie (auth keeps nothing between the two steps). The provider's
 * account (issuer and subject), once linked to a user, signs in as that user; a new one becomes
 * what a magic link is, a single-use token for the app's /authcallback that links it when used, but
 * only for an e-mail the provider vouches for in a domain it is trusted for. Any other address is
 * first proven by a mailed link, followed in this browser: a provider cannot sign anyone into, or
 * make, an account of an address it does not own.
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
    private readonly identities: ProviderIdentitiesRepository,
    private readonly users: UsersRepository,
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
      kind: 'sign-in' as const,
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
   * (openid-client). Then by who signed in: a linked account signs in; a new one as its e-mail
   * allows (`signInAs`). Or back from a mailed proof (`proven`). The cookie is cleared unless a
   * proof now waits in it.
   */
  async callback(
    query: OidcCallbackQuery,
    cookieHeader: string | undefined,
    clientAddress: string,
  ): Promise<BrowserStep> {
    const pending = this.seal.open(parseCookies(cookieHeader ?? '')[OIDC_COOKIE]);
    if (query.state?.startsWith(PROOF_STATE_PREFIX)) return this.proven(query, pending);
    if (pending?.kind === 'proof' || !pending || !query.state || query.state !== pending.state)
      return this.failed('state');
    if (query.error) return this.failed('denied');
    const provider = this.provider(pending.provider);
    if (!provider) return this.failed('unknown');
    const client = await this.client(provider).catch(() => null);
    if (!client) return this.failed('unavailable');
    let answer: ProviderAnswer;
    try {
      const tokens = await client.callback(this.redirectUri, query, {
        state: pending.state,
        nonce: pending.nonce,
        code_verifier: pending.verifier,
        response_type: 'code',
      });
      const idToken = tokens.claims();
      answer = {
        identity: identityOf(idToken),
        claims: await emailSourceOf(idToken, () => client.userinfo(tokens)),
      };
    } catch (err) {
      // The error's own fields may hold the code and the verifier: only what went wrong is logged.
      this.logger.warn({ reason: reasonOf(err), provider: provider.id }, 'sign-in with a provider refused');
      return this.failed('token');
    }
    return this.signInAs(provider, answer, clientAddress);
  }

  /**
   * A provider account linked to a user signs in as that user, whatever e-mail it sends now. A new
   * one needs an e-mail the provider vouches for; in a domain the provider is trusted for, it signs
   * in (or up) at once and is linked; in any other, it is first proven by a mailed link.
   */
  private async signInAs(
    provider: OidcProvider,
    { identity, claims }: ProviderAnswer,
    clientAddress: string,
  ): Promise<BrowserStep> {
    const userId = await this.identities.userIdOf(identity);
    const user = userId === null ? null : await this.users.findById(userId);
    if (user) return this.toApp(provider, 'linked', await this.links.mint(user.email));
    const email = vouchedEmailOf(claims);
    // Only an address the provider vouches for: anything else could claim someone's account.
    if (!email) return this.failed('unverified');
    const name = typeof claims.name === 'string' ? claims.name.trim() : '';
    if (isTrustedFor(provider, email, claims))
      return this.toApp(provider, 'trusted', await this.links.mint(email, identity), name);
    return this.mailProof(provider, { ...identity, email, name }, clientAddress);
  }

  /**
   * The provider is not trusted for this address: a sign-in link goes to it, and this browser keeps
   * the account to link (sealed) until the link comes back here. Only the owner of the inbox, in
   * this browser, links it.
   */
  private async mailProof(
    provider: OidcProvider,
    account: Pick<PendingProof, 'issuer' | 'subject' | 'email' | 'name'>,
    clientAddress: string,
  ): Promise<BrowserStep> {
    const state = `${PROOF_STATE_PREFIX}${generators.state()}`;
    const ttlMs = this.config.MAGIC_LINK_TTL_MINUTES * 60_000;
    try {
      await this.links.sendLink(account.email, clientAddress, (code) => this.proofUrl(state, code));
    } catch (error) {
      if (error instanceof AppError && error.httpStatus === 429) return this.failed('tooMany');
      throw error;
    }
    this.logger.info({ provider: provider.id }, 'provider sign-in: e-mail to be proven by a mailed link');
    const pending: PendingProof = {
      kind: 'proof',
      provider: provider.id,
      state,
      ...account,
      expiresAt: Date.now() + ttlMs,
    };
    return { ...this.failed('linkSent'), cookie: this.cookie(this.seal.seal(pending), ttlMs) };
  }

  /**
   * The mailed link, followed: its token (as `code`) proves the address. In the browser that asked
   * (its sealed proof, same state and address), the provider's account is linked when the minted
   * link is used. Anywhere else it is a plain sign-in link of that address, linking nothing: the
   * owner of the inbox opening a mail someone else caused signs only themselves in.
   */
  private async proven(query: OidcCallbackQuery, pending: Pending | null): Promise<BrowserStep> {
    const link = query.code ? await this.links.findUsableByToken(query.code) : null;
    if (!link || !query.code) return this.failed('state');
    const bound = pending?.kind === 'proof' && pending.state === query.state && pending.email === link.email;
    if (!bound) return this.toApp(null, 'proof elsewhere', this.links.appLink(link.email, query.code));
    if (!(await this.links.consume(link))) return this.failed('state');
    const identity = { issuer: pending.issuer, subject: pending.subject };
    const next = await this.links.mint(link.email, identity);
    return this.toApp(this.provider(pending.provider) ?? null, 'proven', next, pending.name);
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

  /** To the app's /authcallback with a sign-in token (and the provider's name for a sign-up form). */
  private toApp(provider: OidcProvider | null, how: string, link: URL, name = ''): BrowserStep {
    if (name) link.searchParams.set('name', name);
    this.logger.info({ provider: provider?.id, how }, 'provider sign-in: on to the app');
    return { location: link.toString(), cookie: this.cookie('', 0) };
  }

  private proofUrl(state: string, code: string): URL {
    const url = new URL(this.redirectUri);
    url.search = new URLSearchParams({ state, code }).toString();
    return url;
  }

  /** Back to the login screen, which says why (SIGN_IN_PROVIDER_MESSAGES). */
  private failed(why: SignInProviderMessage): BrowserStep {
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

/** An error's name and message, without its fields (openid-client's hold the request's parameters). */
const reasonOf = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);
