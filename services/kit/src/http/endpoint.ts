import {
  HttpCode,
  RequestMethod,
  RequestMapping,
  SetMetadata,
  UseGuards,
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
} from '@nestjs/common';
import type { InternalRouteDef, RouteDef } from '@uis/proto';
import type { Request } from 'express';
import { AccessGuard } from '../auth/access.guard';
import type { AuthUser } from '../auth/access-token';
import { InternalGuard } from '../internal/internal.guard';
import { unsupportedMediaType, validationError } from '../errors';

import { ROUTE_METADATA } from '../keys';

type AnyRouteDef = RouteDef | InternalRouteDef;

const mapping = (def: AnyRouteDef) =>
  RequestMapping({ path: def.path, method: def.method === 'GET' ? RequestMethod.GET : RequestMethod.POST });

/**
 * Binds a controller method to a route of proto's table: path, method, access rule and request
 * schema all come from there, so a controller cannot drift from the contract.
 */
export const Endpoint = (route: RouteDef) =>
  applyDecorators(mapping(route), HttpCode(200), SetMetadata(ROUTE_METADATA, route), UseGuards(AccessGuard));

/** Same for an internal (service-to-service) endpoint: guarded by the service token. */
export const InternalEndpoint = (route: InternalRouteDef) =>
  applyDecorators(
    mapping(route),
    HttpCode(200),
    SetMetadata(ROUTE_METADATA, route),
    UseGuards(InternalGuard),
  );

export const routeOf = (ctx: ExecutionContext): AnyRouteDef | undefined =>
  Reflect.getMetadata(ROUTE_METADATA, ctx.getHandler()) as AnyRouteDef | undefined;

export const JSON_ONLY_TEXT = 'Send the request body as JSON (Content-Type: application/json).';

/**
 * The request (query for GET, a JSON body otherwise) parsed with the route's schema; bad input is a
 * 400. A body of another type is a 415, not read as empty: a form another site posts must change
 * nothing (the spec's calls are JSON; uploads read their multipart form themselves).
 */
export const Input = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  const route = routeOf(ctx);
  if (!route) throw new Error('@Input() used outside an @Endpoint() method');
  const req = ctx.switchToHttp().getRequest<Request>();
  // req.is: null without a body, false for a body of another type.
  if (route.method === 'POST' && req.is('application/json') === false)
    throw unsupportedMediaType(JSON_ONLY_TEXT);
  const raw: unknown = route.method === 'GET' ? req.query : (req.body ?? {});
  const parsed = route.request.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
});

/** The signed-in user the access guard found. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const user = ctx.switchToHttp().getRequest<Request & { user?: AuthUser }>().user;
  if (!user) throw new Error('@CurrentUser() used on a public route');
  return user;
});
