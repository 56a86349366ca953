import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, conflict, forbidden, unauthenticated } from '@uis/kit';
import { ERROR_CODES, RESEARCHER, type ParsedRequestOf, type TokenPair } from '@uis/proto';
import type { DataSource } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { SessionTokensService } from '../tokens/session-tokens.service';
import { researcherPolicy } from '../users/researcher-policy';
import { UsersService } from '../users/users.service';
import { MagicLinksService } from './magic-links.service';

const LINK_UNUSABLE = 'This sign-in link is invalid, expired or already used. Please request a new one.';
const UNIQUE_VIOLATION = '23505';

/** Turns proof of an e-mail (a magic link's token) into tokens, for existing and new accounts. */
@Injectable()
export class SignInService {
  private readonly mayBeResearcher: (email: string) => boolean;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: MagicLinksService,
    private readonly users: UsersService,
    private readonly tokens: SessionTokensService,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
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
    return this.db.transaction(async (tx) => {
      if (!(await this.links.consume(link, tx))) throw unauthenticated(LINK_UNUSABLE);
      return this.tokens.signIn(user, tx);
    });
  }

  async signUp({ email, name, type, token }: ParsedRequestOf<'setNewUser'>): Promise<TokenPair> {
    if (type === RESEARCHER && !this.mayBeResearcher(email)) {
      throw forbidden(
        'This e-mail may not create a researcher account. Ask an administrator to promote you.',
      );
    }
    const proofRequired = type === RESEARCHER || this.config.SIGNUP_EMAIL_PROOF === 'always';
    if (proofRequired && !token) {
      throw unauthenticated('Confirm your e-mail first: request a sign-in link and follow it, then sign up.');
    }
    if (await this.users.findByEmail(email)) throw alreadyRegistered();

    try {
      return await this.db.transaction(async (tx) => {
        if (token) {
          const link = await this.links.findUsable(email, token, tx);
          if (!link || !(await this.links.consume(link, tx))) throw unauthenticated(LINK_UNUSABLE);
        }
        const user = await this.users.create(tx, { email, name, type });
        return this.tokens.signIn(user, tx);
      });
    } catch (error) {
      // Two sign-ups of one e-mail at once: the unique index lets only one through.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw alreadyRegistered();
      throw error;
    }
  }
}

const alreadyRegistered = () =>
  conflict('An account with this e-mail already exists. Please sign in instead.');
