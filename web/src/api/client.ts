import { APP_REQUEST_HEADER, STATUS } from '@uis/proto/browser';
import type { AnswerOf, ErrorRes, RequestOf, RouteName } from '@uis/proto';
import { ROUTES } from 'virtual:uis-routes';
import { tokens } from '../signed-in/tokens';
import { apiUrl } from '../config/app-config';
import { API_TEXTS, serverAnsweredText } from '../i18n/en/api';

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

/** Query and body values: what proto's requests hold (a record of strings: a join link's panel ids). */
type Input = Record<
  string,
  string | number | boolean | null | undefined | readonly string[] | Readonly<Record<string, string>>
>;

const queryString = (input: Input): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * Every call is signed in by the HttpOnly token cookies (credentials), and carries the app's header,
 * without which the services take no cookie for a change (a form another site posts has none).
 */
const headers = (json: boolean): Record<string, string> => ({
  [APP_REQUEST_HEADER.name]: APP_REQUEST_HEADER.value,
  ...(json ? { 'Content-Type': 'application/json' } : {}),
});

/** Builds the request for a route: GET takes the input as its query, POST as JSON. */
function send(name: RouteName, input: Input, signal?: AbortSignal): Promise<Response> {
  const { method, path } = ROUTES[name];
  const get = method === 'GET';
  return fetch(apiUrl(get ? `${path}${queryString(input)}` : path), {
    method,
    credentials: 'include',
    headers: headers(!get),
    body: get ? undefined : JSON.stringify(input),
    signal,
  });
}

type Body = { status?: string; res?: unknown } | null;
const readBody = (response: Response): Promise<Body> => response.json().catch(() => null) as Promise<Body>;

/** The error of an answer whose body was already read (a body can be read only once). */
function failure(httpStatus: number, body: Body): ApiError {
  const res = body?.res as Partial<ErrorRes> | undefined;
  const message = res?.message ?? serverAnsweredText(httpStatus);
  return new ApiError(message, httpStatus, res?.code);
}

/** The `res` of a SUCCESS answer; anything else throws an ApiError. */
function answerOf<N extends RouteName>(httpStatus: number, body: Body): AnswerOf<N> {
  if (body?.status === STATUS.SUCCESS) return body.res as AnswerOf<N>;
  throw failure(httpStatus, body);
}

/**
 * Renews the access token by the refresh cookie (no body: the server takes the cookie, with the app's
 * header), once for concurrent callers. The server sets the new cookies; its answer holds the new
 * access token only, never the refresh token. Refused (401), the login is over: the server cleared
 * its cookies, and the marker goes too.
 */
let refreshing: Promise<string | undefined> | null = null;
function refreshAccess(): Promise<string | undefined> {
  refreshing ??= send('getAccessTokenFromRefreshToken', {})
    .then(async (response) => {
      if (response.status === 401) tokens.clear();
      if (!response.ok) return undefined;
      const { res } = (await response.json()) as { res: AnswerOf<'getAccessTokenFromRefreshToken'> };
      return res.accessToken;
    })
    .catch(() => undefined)
    .finally(() => (refreshing = null));
  return refreshing;
}

/**
 * A new access token (its cookie set, the marker's expiry moved on), or undefined when signed out or
 * the server could not be reached. The live connection hands it to realtime (renewToken): a socket
 * cannot take a new cookie while it is open.
 */
export async function renewAccessToken(): Promise<string | undefined> {
  return tokens.present() ? refreshAccess() : undefined;
}

/** Sends once, and once more after a token refresh when a signed-in request was refused with 401. */
async function signedIn<R extends { status: number }>(sendOnce: () => Promise<R>): Promise<R> {
  const reply = await sendOnce();
  if (reply.status !== 401 || !tokens.present()) return reply;
  return (await refreshAccess()) ? sendOnce() : reply;
}

/** Calls a route of proto's table and answers its `res`; anything but SUCCESS throws an ApiError. */
export async function call<N extends RouteName>(
  name: N,
  input: RequestOf<N>,
  signal?: AbortSignal,
): Promise<AnswerOf<N>> {
  const response = await signedIn(() => send(name, input, signal));
  return answerOf<N>(response.status, await readBody(response));
}

/**
 * Sends a form with XMLHttpRequest, which (unlike fetch) reports upload progress: same headers as
 * any call but no JSON one, so the browser sets the multipart boundary.
 */
function sendForm(
  name: RouteName,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<{ status: number; body: Body }> {
  const { method, path } = ROUTES[name];
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, apiUrl(path));
    request.withCredentials = true;
    for (const [header, value] of Object.entries(headers(false))) request.setRequestHeader(header, value);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => resolve({ status: request.status, body: request.response as Body });
    request.onerror = () => reject(new ApiError(API_TEXTS.uploadNotSent, 0));
    request.onabort = () => reject(new ApiError(API_TEXTS.uploadCancelled, 0));
    request.send(form);
  });
}

/**
 * An upload route (multipart): the form's fields first, in the given order (so the server can
 * refuse a stranger before the file is read), then the file under the route's field name.
 * `onProgress` hears the percent sent.
 */
export async function upload<N extends RouteName>(
  name: N,
  fields: Record<string, string>,
  file: File,
  onProgress: (percent: number) => void = () => undefined,
): Promise<AnswerOf<N>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(ROUTES[name].multipartFile ?? 'file', file);
  const { status, body } = await signedIn(() => sendForm(name, form, onProgress));
  return answerOf<N>(status, body);
}

/** A route that answers a file (the CSV export): its bytes, or an ApiError. */
export async function download<N extends RouteName>(name: N, input: RequestOf<N>): Promise<Blob> {
  const response = await signedIn(() => send(name, input));
  if (!response.ok) throw failure(response.status, await readBody(response));
  return response.blob();
}

/**
 * The address of a GET route with its input, for a link the browser follows itself: a download of a
 * large file (the study export) then streams to disk instead of into a blob in the page. The browser
 * sends the accessToken cookie with it, which the services accept alone on reading requests.
 */
export function routeUrl<N extends RouteName>(name: N, input: RequestOf<N>): string {
  const { method, path } = ROUTES[name];
  if (method !== 'GET') throw new Error(`${name} is not a GET route: a link cannot send it`);
  return apiUrl(`${path}${queryString(input)}`);
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
