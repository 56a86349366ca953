import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { RESEARCHER, type RouteDef } from '@uis/proto';
import type { Request } from 'express';
import { forbidden, unauthenticated } from '../errors';
import { verifyAccessToken, type AuthUser } from './access-token';
import { JWT_SECRET, ROUTE_METADATA } from '../keys';
import { Revocations } from './revocations';
import { COOKIE_WITHOUT_APP_HEADER_TEXT, accessTokenOf, cookieWithoutAppHeader } from './token-source';

export const SESSION_ENDED_TEXT = 'Your session has ended. Please sign in again.';

/**
 * Enforces a route's `access` from proto: public, any signed-in user, or researchers only. A token
 * whose login or user was revoked (logout, account deletion) counts as no token.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    @Inject(JWT_SECRET) private readonly secret: string,
    private readonly revocations: Revocations,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    const route = Reflect.getMetadata(ROUTE_METADATA, ctx.getHandler()) as RouteDef | undefined;
    if (!route) throw new Error('AccessGuard needs an @Endpoint() route');
    if (route.access === 'public') return true;

    const req = ctx.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const presented = accessTokenOf(req, route.tokenInQuery === true);
    if (!presented && cookieWithoutAppHeader(req)) throw unauthenticated(COOKIE_WITHOUT_APP_HEADER_TEXT);
    const verified = presented ? verifyAccessToken(this.secret, presented.token) : null;
    if (!verified) throw unauthenticated();
    if (this.revocations.isRevoked(verified)) throw unauthenticated(SESSION_ENDED_TEXT);
    if (route.access === 'researcher' && verified.user.type !== RESEARCHER) {
      throw forbidden('Only researchers can do this.');
    }
    req.user = verified.user;
    return true;
  }
}
