import { Controller, Headers, Ip, Res } from '@nestjs/common';
import { Endpoint, Input } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import type { Response } from 'express';
import { OidcService, type BrowserStep } from './oidc.service';

/** The login screen's provider buttons, and the two browser steps of a sign-in with one. */
@Controller()
export class OidcController {
  constructor(private readonly oidc: OidcService) {}

  @Endpoint(routes.getSignInProviders)
  getSignInProviders(): AnswerOf<'getSignInProviders'> {
    return { providers: this.oidc.providers() };
  }

  @Endpoint(routes.oidcStart)
  async oidcStart(@Input() { provider }: ParsedRequestOf<'oidcStart'>, @Res() res: Response): Promise<void> {
    redirect(res, await this.oidc.start(provider));
  }

  @Endpoint(routes.oidcCallback)
  async oidcCallback(
    @Input() query: ParsedRequestOf<'oidcCallback'>,
    @Headers('cookie') cookie: string | undefined,
    @Ip() address: string,
    @Res() res: Response,
  ): Promise<void> {
    redirect(res, await this.oidc.callback(query, cookie, address));
  }
}

function redirect(res: Response, { location, cookie }: BrowserStep): void {
  // Neither step may be cached: each carries a one-time state or token.
  res.setHeader('Cache-Control', 'no-store').setHeader('Set-Cookie', cookie).redirect(302, location);
}
