import { Inject, Injectable } from '@nestjs/common';
import { AppError, PG_ERRORS, conflict, forbidden, pgErrorCode, unauthenticated } from '@uis/kit';
import { ERROR_CODES, RESEARCHER, type ParsedRequestOf, type TokenPair } from '@uis/proto';
import type { EntityManager } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { Transactions } from '../database/transactions';
import { ProviderIdentitiesRepository } from '../oidc/provider-identities.repository';
import { SessionTokensService } from '../tokens/session-tokens.service';
import { researcherPolicy } from '../users/researcher-policy';
import type { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import type { MagicLinkEntity } from './magic-link.entity';
import { MagicLinksService } from './magic-links.service';

const LINK_UNUSABLE = 'This sign-in link is invalid, expired or already used. Please request a new one.';
export const CONFIRM_EMAIL_FIRST =
  'Confirm your e-mail first: enter it on the sign-in page, follow the link we mail you, and finish signing up there.';
/**
 * The researcher sign-up of an address RESEARCHER_EMAILS does not allow (empty by default: nobody).
 * Says who grants it and both ways they can (docs/deployment.md, "The first researcher"): the link stays
 * usable, so the person may sign up as a participant right away.
 */
export const RESEARCHER_NOT_GRANTED =
  'Researcher accounts on this site are granted by its administrators (the people who run it for your institution). ' +
  'Ask them to allow your e-mail address and then sign up again, or sign up as a participant now and ask them ' +
  'to turn that account into a researcher account.';

/** Turns proof of an e-mail (a magic link's token) into tokens, for existing and new accounts. */
@Injectable()
export class SignInService {
  private readonly mayBeResearcher: (email: string) => boolean;

  constructor(
    private readonly transactions: Transactions,
    private readonly links: MagicLinksService,
    private readonly users: UsersRepository,
    private readonly tokens: SessionTokensService,
    private readonly identities: ProviderIdentitiesRepository,
    @Inject(AUTH_CONFIG) config: AuthConfig,
  ) {
    this.mayBeResearcher = researcherPolicy(config.RESEARCHER_EMAILS);
  }

  /**
   * The callback page's call. For an e-mail without an account the token is left unused, so the
   * sign-up that follows can present it as proof of the address.
   */
  async redeemLink(email: string, token: string): Promise<TokenPair> {
    const link = await this.links.findUsable(email, token);
    if (!link) throw unauthenticated(LINK_UNUSABLE);
    const user = await this.users.findByEmail(email);
    if (!user) {
      throw new AppError(
        404,
        ERROR_CODES.SIGNUP_REQUIRED,
        'No account uses this e-mail yet: sign up to continue (this link stays valid for the sign-up).',
      );
    }
    return this.transactions.run(async (tx) => {
      if (!(await this.links.consume(link, tx))) throw unauthenticated(LINK_UNUSABLE);
      await this.linkIdentity(link, user, tx);
      return this.tokens.signIn(user, tx);
    });
  }

  /**
   * Every sign-up proves its e-mail with a magic link's token: otherwise anyone could claim an
   * address a researcher already put in a session's scope, and see that session. The token is
   * checked before anything else, so only the owner of the address learns whether it has an account.
   */
  async signUp({ email, name, type, token }: ParsedRequestOf<'setNewUser'>): Promise<TokenPair> {
    if (!token) throw unauthenticated(CONFIRM_EMAIL_FIRST);
    try {
      return await this.transactions.run(async (tx) => {
        const link = await this.links.findUsable(email, token, tx);
        if (!link) throw unauthenticated(LINK_UNUSABLE);
        if (type === RESEARCHER && !this.mayBeResearcher(email)) {
          throw forbidden(RESEARCHER_NOT_GRANTED);
        }
        if (await this.users.findByEmail(email, tx)) throw alreadyRegistered();
        if (!(await this.links.consume(link, tx))) throw unauthenticated(LINK_UNUSABLE);
        const user = await this.users.create(tx, { email, name, type });
        await this.linkIdentity(link, user, tx);
        return this.tokens.signIn(user, tx);
      });
    } catch (error) {
      // Two sign-ups of one e-mail at once: the unique index lets only one through.
      if (pgErrorCode(error) === PG_ERRORS.uniqueViolation) throw alreadyRegistered();
      throw error;
    }
  }

  /** A link minted for a provider's sign-in links its account to the user who uses it. */
  private async linkIdentity(link: MagicLinkEntity, user: UserEntity, tx: EntityManager): Promise<void> {
    if (link.identityIssuer === null || link.identitySubject === null) return;
    await this.identities.link(tx, { issuer: link.identityIssuer, subject: link.identitySubject }, user.id);
  }
}

const alreadyRegistered = () =>
  conflict('An account with this e-mail already exists. Please sign in instead.');
