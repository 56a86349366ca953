import { STATUS } from '@uis/proto/browser';
import type { AnswerOf, ErrorRes, RequestOf, RouteName } from '@uis/proto';
import { ROUTES } from 'virtual:uis-routes';
import { tokens } from '../auth/tokens';

/** A call that did not answer SUCCESS: the server's message, its code and the HTTP status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Query and body values: what proto's requests hold. */
type Input = Record<string, string | number | boolean | null | undefined | readonly string[]>;

const queryString = (input: Input): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

const headers = (json: boolean): HeadersInit => {
  const access = tokens.access();
  return {
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...(access ? { Authorization: `Bearer ${access}` } : {}),
  };
};

/** Builds the request for a route: GET takes the input as its query, POST as JSON (or the form given). */
function send(name: RouteName, input: Input | FormData, signal?: AbortSignal): Promise<Response> {
  const { method, path } = ROUTES[name];
  const isForm = input instanceof FormData;
  const url = method === 'GET' && !isForm ? `${path}${queryString(input)}` : path;
  return fetch(url, {
    method,
    credentials: 'include',
    headers: headers(!isForm && method !== 'GET'),
    body: method === 'GET' ? undefined : isForm ? input : JSON.stringify(input),
    signal,
  });
}

type Body = { status?: string; res?: unknown } | null;
const readBody = (response: Response): Promise<Body> => response.json().catch(() => null) as Promise<Body>;

/** The error of an answer whose body was already read (a body can be read only once). */
function failure(response: Response, body: Body): ApiError {
  const res = body?.res as Partial<ErrorRes> | undefined;
  const message = res?.message ?? `The server answered ${response.status}.`;
  return new ApiError(message, response.status, res?.code);
}

/**
 * A 401 on a signed-in call means the access token expired: trade the refresh token for a new pair
 * once (concurrent calls share the trade), then retry. Without a refresh token the 401 stands.
 */
let refreshing: Promise<boolean> | null = null;
function refreshAccess(): Promise<boolean> {
  const refreshToken = tokens.refresh();
  if (!refreshToken) return Promise.resolve(false);
  refreshing ??= send('getAccessTokenFromRefreshToken', { refreshToken })
    .then(async (response) => {
      if (!response.ok) {
        tokens.removeRefresh();
        return false;
      }
      const { res } = (await response.json()) as { res: AnswerOf<'getAccessTokenFromRefreshToken'> };
      tokens.setPair(res);
      return true;
    })
    .catch(() => false)
    .finally(() => (refreshing = null));
  return refreshing;
}

async function sendSignedIn(name: RouteName, input: Input | FormData, signal?: AbortSignal) {
  const response = await send(name, input, signal);
  if (response.status !== 401 || !tokens.refresh() || !tokens.access()) return response;
  return (await refreshAccess()) ? send(name, input, signal) : response;
}

/** Calls a route of proto's table and answers its `res`; anything but SUCCESS throws an ApiError. */
export async function call<N extends RouteName>(
  name: N,
  input: RequestOf<N>,
  signal?: AbortSignal,
): Promise<AnswerOf<N>> {
  const response = await sendSignedIn(name, input, signal);
  const body = await readBody(response);
  if (body?.status === STATUS.SUCCESS) return body.res as AnswerOf<N>;
  throw failure(response, body);
}

/** An upload route (multipart, no JSON header): the form's fields and the file under the route's field name. */
export async function upload<N extends RouteName>(
  name: N,
  fields: Record<string, string>,
  file: File,
): Promise<AnswerOf<N>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(ROUTES[name].multipartFile ?? 'file', file);
  const response = await sendSignedIn(name, form);
  const body = await readBody(response);
  if (body?.status === STATUS.SUCCESS) return body.res as AnswerOf<N>;
  throw failure(response, body);
}

/** A route that answers a file (the CSV export): its bytes, or an ApiError. */
export async function download<N extends RouteName>(name: N, input: RequestOf<N>): Promise<Blob> {
  const response = await sendSignedIn(name, input);
  if (!response.ok) throw failure(response, await readBody(response));
  return response.blob();
}

/** Hands a blob to the browser as a download named `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
