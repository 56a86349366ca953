/** The route table the vite config generates from proto (see `routeTable` in vite.config.ts). */
declare module 'virtual:uis-routes' {
  import type { HttpMethod, RouteDef, RouteName } from '@uis/proto';

  export interface RouteMeta {
    method: HttpMethod;
    path: string;
    multipartFile?: string;
    produces?: RouteDef['produces'];
    tokenInQuery?: boolean;
  }
  export const ROUTES: Record<RouteName, RouteMeta>;
}
