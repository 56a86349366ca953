import { QueryClientProvider } from '@tanstack/react-query';
import { STATUS } from '@uis/proto/browser';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { createQueryClient } from '../../../api/queries';

/**
 * The outside world of the editor's component tests: `fetch` answered from handlers by path, with
 * the {status, res} envelope, and every request recorded. Answers are plain objects whose body
 * methods are promises, so fake timers drive everything.
 */
export interface ApiRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export type ApiAnswer = { res: unknown; httpStatus?: number } | { blob: Blob };
export type ApiHandler = (request: ApiRequest) => ApiAnswer;

export const ok = (res: unknown): ApiAnswer => ({ res });
export const refused = (message: string, httpStatus = 400): ApiAnswer => ({
  res: { message },
  httpStatus,
});

function answer(result: ApiAnswer): Response {
  if ('blob' in result) {
    return { ok: true, status: 200, blob: () => Promise.resolve(result.blob) } as unknown as Response;
  }
  const httpStatus = result.httpStatus ?? 200;
  const body = { status: httpStatus < 400 ? STATUS.SUCCESS : STATUS.ERROR, res: result.res };
  return {
    ok: httpStatus < 400,
    status: httpStatus,
    json: () => Promise.resolve(body),
  } as unknown as Response;
}

export function stubApi(handlers: Record<string, ApiHandler>) {
  const requests: ApiRequest[] = [];
  const fetchStub = vi.fn((input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const request: ApiRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body,
    };
    requests.push(request);
    const handler = handlers[url.pathname];
    return Promise.resolve(answer(handler ? handler(request) : refused(`no stub for ${url.pathname}`, 404)));
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    requests,
    to: (path: string) => requests.filter((request) => request.path === path),
  };
}

/** Renders with the app's query client (its toasts and refetches) and a router at `path`. */
export function renderWithApi(ui: ReactElement, path = '/') {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}
