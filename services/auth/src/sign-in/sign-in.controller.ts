import { Controller, Ip } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, unauthenticated, type AuthUser } from '@uis/kit';
import { UI_TEXTS, routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { SessionTokensService } from '../tokens/session-tokens.service';
import { UsersService, toUser } from '../users/users.service';
import { MagicLinksService } from './magic-links.service';
import { SignInService } from './sign-in.service';

@Controller()
export class SignInController {
  constructor(
    private readonly links: MagicLinksService,
    private readonly signIn: SignInService,
    private readonly tokens: SessionTokensService,
    private readonly users: UsersService,
  ) {}

  @Endpoint(routes.magicLogin)
  async magicLogin(
    @Input() { destination, next }: ParsedRequestOf<'magicLogin'>,
    @Ip() address: string,
  ): Promise<AnswerOf<'magicLogin'>> {
    await this.links.send(destination, address, next);
    return { message: UI_TEXTS.magicLinkSent };
  }

  @Endpoint(routes.getUserTokens)
  getUserTokens(
    @Input() { email, token }: ParsedRequestOf<'getUserTokens'>,
  ): Promise<AnswerOf<'getUserTokens'>> {
    return this.signIn.redeemLink(email, token);
  }

  @Endpoint(routes.setNewUser)
  setNewUser(@Input() input: ParsedRequestOf<'setNewUser'>): Promise<AnswerOf<'setNewUser'>> {
    return this.signIn.signUp(input);
  }

  @Endpoint(routes.getUserFromToken)
  async getUserFromToken(@CurrentUser() caller: AuthUser): Promise<AnswerOf<'getUserFromToken'>> {
    const user = await this.users.findById(caller.id);
    if (!user) throw unauthenticated('This account no longer exists.');
    return { user: toUser(user) };
  }

  @Endpoint(routes.getAccessTokenFromRefreshToken)
  refresh(
    @Input() { refreshToken }: ParsedRequestOf<'getAccessTokenFromRefreshToken'>,
  ): Promise<AnswerOf<'getAccessTokenFromRefreshToken'>> {
    return this.tokens.rotate(refreshToken, (id) => this.users.findById(id));
  }

  @Endpoint(routes.logout)
  async logout(@Input() { refreshToken }: ParsedRequestOf<'logout'>): Promise<AnswerOf<'logout'>> {
    await this.tokens.revoke(refreshToken);
    return { message: 'Signed out.' };
  }
}
