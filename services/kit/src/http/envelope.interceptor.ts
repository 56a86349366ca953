import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { STATUS, type RouteDef } from '@uis/proto';
import { map, type Observable } from 'rxjs';
import { ROUTE_METADATA } from '../keys';

/** Wraps what a handler returns in the `{status: SUCCESS, res}` envelope of every REST answer. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = Reflect.getMetadata(ROUTE_METADATA, ctx.getHandler()) as RouteDef | undefined;
    if (ctx.getType() !== 'http' || route?.produces) return next.handle();
    return next.handle().pipe(map((res: unknown) => ({ status: STATUS.SUCCESS, res })));
  }
}
