import { Controller, Inject, Ip, Req, Res } from '@nestjs/common';
import { AppError, CurrentUser, Endpoint, Input, JWT_SECRET, unauthenticated, type AuthUser } from '@uis/kit';
import { APP_REQUEST_HEADER, UI_TEXTS, routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import type { Request, Response } from 'express';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { SessionTokensService } from '../tokens/session-tokens.service';
import { TokenCookies } from '../tokens/token-cookies';
import { ACCOUNT_GONE_TEXT, UsersRepository, toUser } from '../users/users.repository';
import { LinkEntryService } from './link-entry.service';
import { MagicLinksService } from './magic-links.service';
import { SignInService } from './sign-in.service';

const NO_REFRESH_TOKEN = `Sign in first: send the refresh token, or its cookie with the ${APP_REQUEST_HEADER.name}: ${APP_REQUEST_HEADER.value} header.`;

/** The routes that hand out tokens set them as cookies too (TokenCookies); logout clears them. */
@Controller()
export class SignInController {
  private readonly cookies: TokenCookies;

  constructor(
    private readonly links: MagicLinksService,
    private readonly signIn: SignInService,
    private readonly linkEntry: LinkEntryService,
    private readonly tokens: SessionTokensService,
    private readonly users: UsersRepository,
    @Inject(AUTH_CONFIG) config: AuthConfig,
    @Inject(JWT_SECRET) jwtSecret: string,
  ) {
    this.cookies = new TokenCookies(config, jwtSecret);
  }

  @Endpoint(routes.magicLogin)
  async magicLogin(
    @Input() { destination, next }: ParsedRequestOf<'magicLogin'>,
    @Ip() address: string,
  ): Promise<AnswerOf<'magicLogin'>> {
    await this.links.send(destination, address, next);
    return { message: UI_TEXTS.magicLinkSent };
  }

  @Endpoint(routes.getUserTokens)
  async getUserTokens(
    @Input() { email, token }: ParsedRequestOf<'getUserTokens'>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnswerOf<'getUserTokens'>> {
    return this.cookies.handOut(req, res, await this.signIn.redeemLink(email, token));
  }

  @Endpoint(routes.setNewUser)
  async setNewUser(
    @Input() input: ParsedRequestOf<'setNewUser'>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnswerOf<'setNewUser'>> {
    return this.cookies.handOut(req, res, await this.signIn.signUp(input));
  }

  /** A participant entering through a join link without an e-mail (the page then joins the session). */
  @Endpoint(routes.enterThroughLink)
  async enterThroughLink(
    @Input() { token, panelIds }: ParsedRequestOf<'enterThroughLink'>,
    @Ip() address: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnswerOf<'enterThroughLink'>> {
    return this.cookies.handOut(req, res, await this.linkEntry.enter(token, panelIds, address));
  }

  @Endpoint(routes.getUserFromToken)
  async getUserFromToken(@CurrentUser() caller: AuthUser): Promise<AnswerOf<'getUserFromToken'>> {
    const user = await this.users.findById(caller.id);
    if (!user) throw unauthenticated(ACCOUNT_GONE_TEXT);
    return { user: toUser(user) };
  }

  /** The body's refresh token (API clients), else the cookie's (the web app, with its header). */
  @Endpoint(routes.getAccessTokenFromRefreshToken)
  async refresh(
    @Input() { refreshToken }: ParsedRequestOf<'getAccessTokenFromRefreshToken'>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnswerOf<'getAccessTokenFromRefreshToken'>> {
    const presented = refreshToken ?? this.cookies.refreshTokenOf(req);
    if (!presented) throw unauthenticated(NO_REFRESH_TOKEN);
    try {
      return this.cookies.handOut(
        req,
        res,
        await this.tokens.rotate(presented, (id) => this.users.findById(id)),
      );
    } catch (error) {
      // A refused cookie would only be refused again: the browser drops it (a 503 keeps it to retry).
      if (!refreshToken && error instanceof AppError && error.httpStatus === 401)
        this.cookies.clear(req, res);
      throw error;
    }
  }

  @Endpoint(routes.logout)
  async logout(
    @Input() { refreshToken }: ParsedRequestOf<'logout'>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnswerOf<'logout'>> {
    const presented = refreshToken ?? this.cookies.refreshTokenOf(req);
    if (presented) await this.tokens.revoke(presented);
    this.cookies.clear(req, res);
    return { message: 'Signed out.' };
  }
}
