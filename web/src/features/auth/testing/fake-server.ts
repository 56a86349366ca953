import { vi } from 'vitest';

/** One answer of the fake API: HTTP status and the {status, res} envelope. */
export interface FakeAnswer {
  status: number;
  body: unknown;
}
export const ok = (res: unknown): FakeAnswer => ({ status: 200, body: { status: 'SUCCESS', res } });
export const refused = (status: number, message: string, code?: string): FakeAnswer => ({
  status,
  body: { status: 'ERROR', res: { message, code } },
});

export interface Sent {
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * Stands in for the API at the edge of the browser (fetch): answers by path and records what was
 * sent, so component tests check the real client, query and auth code above it.
 */
export function fakeServer(routes: Record<string, (sent: Sent) => FakeAnswer | Promise<FakeAnswer>>) {
  const sent: Sent[] = [];
  const fetchMock = vi.fn((url: string, init?: RequestInit): Promise<Response> => {
    const parsed = new URL(url, 'http://app.test');
    const request: Sent = {
      path: parsed.pathname,
      query: parsed.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const route = routes[parsed.pathname];
    const answer = route ? route(request) : refused(404, `no fake for ${parsed.pathname}`);
    return Promise.resolve(answer).then(
      ({ status, body }) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, calls: (path: string) => sent.filter((request) => request.path === path) };
}
