import type { z } from 'zod';
import type { RestServiceName } from './services';

export type HttpMethod = 'GET' | 'POST';

/**
 * Who may call a route. The server enforces it before the handler runs; finer rules
 * (owner of a group, participant in a session's scope) are the owning service's.
 */
export type RouteAccess = 'public' | 'user' | 'researcher';

export interface RouteDef<Req extends z.ZodType = z.ZodType, Ans extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  path: string;
  service: RestServiceName;
  access: RouteAccess;
  /** Query string for GET, JSON body for POST, the text fields of a multipart form for uploads. */
  request: Req;
  /** The `res` of a SUCCESS answer (for `produces: 'csv'`, the routes answers a CSV file instead). */
  answer: Ans;
  summary: string;
  /** Multipart upload: the name of the file field. */
  multipartFile?: string;
  /** The route answers a file (a CSV export, a video), not the JSON envelope. */
  produces?: 'csv' | 'file';
  /** The access token may also come as the `accessToken` query parameter (spec's /getUserFromToken). */
  tokenInQuery?: boolean;
  /** Not in spec section 7: added by us, with the reason in `summary`. */
  extension?: true;
}

/** Keeps each route's literal schema types while checking it is a RouteDef. */
export const defineRoutes = <T extends Record<string, RouteDef>>(routes: T): T => routes;
