import type { z } from 'zod';
import type { HttpMethod, RouteDef } from '../route';
import { authRoutes } from './auth.routes';
import { consentRoutes } from './consent.routes';
import { contentRoutes } from './content.routes';
import { deviceCheckRoutes } from './device-check.routes';
import { exposureRoutes } from './exposure.routes';
import { participationRoutes } from './participation.routes';
import { recordsRoutes } from './records.routes';
import { signalRoutes } from './signal.routes';
import { studiesRoutes } from './studies.routes';
import { studyExportRoutes } from './study-export.routes';

export * from './auth.routes';
export * from './consent.routes';
export * from './content.routes';
export * from './device-check.routes';
export * from './exposure.routes';
export * from './participation.routes';
export * from './records.routes';
export * from './session-or-group';
export * from './signal.routes';
export * from './studies.routes';
export * from './study-export.routes';

/** Every public REST route, by name. The gateway, the services and the web client all read this. */
export const routes = {
  ...authRoutes,
  ...studiesRoutes,
  ...participationRoutes,
  ...consentRoutes,
  ...contentRoutes,
  ...recordsRoutes,
  ...deviceCheckRoutes,
  ...exposureRoutes,
  ...studyExportRoutes,
  ...signalRoutes,
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export type RouteListEntry = RouteDef & { name: RouteName };

/** The route table as a list, in definition order (auth, studies, content, records and its study export, signal). */
export const routeList: readonly RouteListEntry[] = (Object.keys(routes) as RouteName[]).map(
  (name): RouteListEntry => ({ name, ...routes[name] }),
);

/** The route a request is for, or undefined (paths match exactly; query strings are not part of them). */
export const findRoute = (method: HttpMethod, path: string): RouteListEntry | undefined =>
  routeList.find((route) => route.method === method && route.path === path);

/** What a client sends (defaults still optional). */
export type RequestOf<N extends RouteName> = z.input<Routes[N]['request']>;
/** What the handler receives after validation (defaults filled, text trimmed, clock times in seconds). */
export type ParsedRequestOf<N extends RouteName> = z.output<Routes[N]['request']>;
/** The `res` of the route's SUCCESS answer. */
export type AnswerOf<N extends RouteName> = z.output<Routes[N]['answer']>;
