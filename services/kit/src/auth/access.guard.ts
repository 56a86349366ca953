import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { RESEARCHER, type RouteDef } from '@uis/proto';
import type { Request } from 'express';
import { forbidden, unauthenticated } from '../errors';
import { verifyAccessToken, type AuthUser } from './access-token';
import { JWT_SECRET, ROUTE_METADATA } from '../keys';
import { accessTokenOf } from './token-source';

/** Enforces a route's `access` from proto: public, any signed-in user, or researchers only. */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(@Inject(JWT_SECRET) private readonly secret: string) {}

  canActivate(ctx: ExecutionContext): boolean {
    const route = Reflect.getMetadata(ROUTE_METADATA, ctx.getHandler()) as RouteDef | undefined;
    if (!route) throw new Error('AccessGuard needs an @Endpoint() route');
    if (route.access === 'public') return true;

    const req = ctx.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = accessTokenOf(req, route.tokenInQuery === true);
    const user = token ? verifyAccessToken(this.secret, token) : null;
    if (!user) throw unauthenticated();
    if (route.access === 'researcher' && user.type !== RESEARCHER) {
      throw forbidden('Only researchers can do this.');
    }
    req.user = user;
    return true;
  }
}
