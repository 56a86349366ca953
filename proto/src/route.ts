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
  /** The `res` of a SUCCESS answer (for a route that `produces` a file, the route answers the file instead). */
  answer: Ans;
  summary: string;
  /** Multipart upload: the name of the file field. */
  multipartFile?: string;
  /**
   * The route answers a file, not the JSON envelope: a CSV export, a ZIP archive (the study export)
   * or any other file (a video). Refusals before the first byte are still the JSON error envelope.
   * `redirect`: a step of a browser's sign-in with a provider, always a 302 (errors included).
   */
  produces?: 'csv' | 'zip' | 'file' | 'redirect';
  /** The access token may also come as the `accessToken` query parameter (spec's /getUserFromToken). */
  tokenInQuery?: boolean;
  /** Not in spec section 7: added by us, with the reason in `summary`. */
  extension?: true;
}

/** Keeps each route's literal schema types while checking it is a RouteDef. */
export const defineRoutes = <T extends Record<string, RouteDef>>(routes: T): T => routes;
