import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { forbidden } from '../errors';
import { SERVICE_TOKEN_HEADER } from '@uis/proto';
import { SERVICE_TOKEN } from '../keys';

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Internal endpoints answer only callers holding the shared service token. */
@Injectable()
export class InternalGuard implements CanActivate {
  constructor(@Inject(SERVICE_TOKEN) private readonly serviceToken: string) {}

  canActivate(ctx: ExecutionContext): boolean {
    const presented = ctx.switchToHttp().getRequest<Request>().headers[SERVICE_TOKEN_HEADER];
    if (typeof presented !== 'string' || !sameSecret(presented, this.serviceToken)) {
      throw forbidden('Internal endpoint: a valid service token is required.');
    }
    return true;
  }
}
