import { STATUS } from '@uis/proto/browser';
import { vi } from 'vitest';

/** One request the app sent: `url` as fetched (path and encoded query), the query read back, the body. */
export interface ApiRequest {
  method: string;
  url: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** One answer of the fake API: an HTTP status with the {status, res} envelope, or a file (the CSV export). */
export type ApiAnswer = { httpStatus: number; body: unknown } | { blob: Blob };
export type ApiHandler = (request: ApiRequest) => ApiAnswer | Promise<ApiAnswer>;

export const ok = (res: unknown): ApiAnswer => ({ httpStatus: 200, body: { status: STATUS.SUCCESS, res } });
export const refused = (httpStatus: number, message: string, code?: string): ApiAnswer => ({
  httpStatus,
  body: { status: STATUS.ERROR, res: { message, code } },
});

/**
 * Plain objects, not `Response`s: their body methods are promises, so fake timers drive everything
 * (a real Response reads its body through streams that fake timers do not advance).
 */
function response(answer: ApiAnswer): Response {
  if ('blob' in answer) {
    return { ok: true, status: 200, blob: () => Promise.resolve(answer.blob) } as unknown as Response;
  }
  // Through JSON like the wire: the app gets its own copy, never the objects a handler keeps changing.
  const json = JSON.stringify(answer.body);
  return {
    ok: answer.httpStatus < 400,
    status: answer.httpStatus,
    json: () => Promise.resolve(JSON.parse(json) as unknown),
  } as unknown as Response;
}

/**
 * Stands in for the API at the edge of the browser (`fetch`): answers by path from `handlers` and
 * records every request, so component tests check the real client, query and auth code above it.
 * The setup file unstubs `fetch` after each test.
 */
export function fakeApi(handlers: Record<string, ApiHandler>) {
  const requests: ApiRequest[] = [];
  const fetchStub = vi.fn((url: string, init: RequestInit = {}): Promise<Response> => {
    const parsed = new URL(url, 'http://app.test');
    const request: ApiRequest = {
      method: init.method ?? 'GET',
      url,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body,
    };
    requests.push(request);
    const handler = handlers[parsed.pathname];
    const answer = handler ? handler(request) : refused(404, `no fake for ${parsed.pathname}`);
    // A plain answer resolves at once; only a handler that waits on purpose adds turns.
    return answer instanceof Promise ? answer.then(response) : Promise.resolve(response(answer));
  });
  vi.stubGlobal('fetch', fetchStub);
  return { requests, to: (path: string) => requests.filter((request) => request.path === path) };
}
