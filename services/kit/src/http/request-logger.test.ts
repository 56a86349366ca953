import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createLogger } from '../logger';
import { currentRequestId } from './request-context';
import {
  HOT_INTERNAL_ROUTES,
  REQUEST_ID_HEADER,
  requestLogger,
  type RequestLoggerOptions,
} from './request-logger';

interface Line {
  level: number;
  msg: string;
  requestId?: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
}
const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A server behind the request logger: `?status=` picks the answer, `?delay=` how long it takes. */
async function serve(level: string, options: RequestLoggerOptions) {
  const out = new PassThrough();
  const lines: Line[] = [];
  out.on('data', (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .forEach((line) => lines.push(JSON.parse(line) as Line)),
  );
  const logger = createLogger({ service: 'auth', level, destination: out });
  const middleware = requestLogger(logger, options);
  const server = http.createServer((req, res) =>
    middleware(req, res, () => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      setTimeout(
        () => {
          res.statusCode = Number(query.get('status') ?? 200);
          res.end(JSON.stringify({ requestId: currentRequestId() }));
        },
        Number(query.get('delay') ?? 0),
      );
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    lines,
    async call(method: string, path: string, headers: Record<string, string> = {}) {
      const res = await fetch(base + path, { method, headers });
      const body = (await res.json()) as { requestId: string };
      // The line is written when the answer has gone out; let it through the stream.
      await new Promise((resolve) => setImmediate(resolve));
      return { header: res.headers.get(REQUEST_ID_HEADER), body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('requestLogger', () => {
  const hotRoutes = new Set(['POST /internal/records/messages/batch', 'GET /internal/records/messages']);

  it('takes the hot routes from proto: realtime’s page reads, message groups, clicks, exposure batches and access checks', () => {
    expect(HOT_INTERNAL_ROUTES).toEqual(
      new Set([
        'GET /internal/records/messages',
        'POST /internal/records/exposure/batch',
        'POST /internal/records/messages/batch',
        'POST /internal/records/messages/latest',
        'POST /internal/records/pixels',
        'POST /internal/studies/access/batch',
      ]),
    );
  });

  it('logs a quick success of a hot route at debug, with its request id; other routes at info', async () => {
    const server = await serve('debug', { hotRoutes, slowMs: 10_000 });
    try {
      const hot = await server.call('POST', '/internal/records/messages/batch', {
        [REQUEST_ID_HEADER]: 'req-1',
      });
      expect(hot).toEqual({ header: 'req-1', body: { requestId: 'req-1' } });
      // The path decides, not the query string; the method too.
      await server.call('GET', '/internal/records/messages?sessionId=s&limit=3', {
        [REQUEST_ID_HEADER]: 'req-2',
      });
      await server.call('POST', '/internal/records/messages', { [REQUEST_ID_HEADER]: 'req-3' });
      await server.call('POST', '/internal/studies/other', { [REQUEST_ID_HEADER]: 'req-4' });
      expect(server.lines.map((line) => [line.req?.id, line.requestId, line.level])).toEqual([
        ['req-1', 'req-1', LEVEL.debug],
        ['req-2', 'req-2', LEVEL.debug],
        ['req-3', 'req-3', LEVEL.info],
        ['req-4', 'req-4', LEVEL.info],
      ]);
    } finally {
      await server.close();
    }
  });

  it('at the default level, writes nothing for a quick hot success, but its refusals, failures and slow answers', async () => {
    const server = await serve('info', { hotRoutes, slowMs: 50 });
    try {
      const path = '/internal/records/messages/batch';
      const quick = await server.call('POST', path);
      expect(quick.header).toMatch(/^[0-9a-f-]{36}$/);
      expect(quick.body.requestId).toBe(quick.header);
      await server.call('POST', `${path}?status=400`);
      await server.call('POST', `${path}?status=503`);
      await server.call('POST', `${path}?delay=80`);
      expect(server.lines.map((line) => [line.req?.url, line.res?.statusCode, line.level])).toEqual([
        [`${path}?status=400`, 400, LEVEL.warn],
        [`${path}?status=503`, 503, LEVEL.error],
        [`${path}?delay=80`, 200, LEVEL.info],
      ]);
    } finally {
      await server.close();
    }
  });

  it('redacts credentials in the URL: tokens, and the authorization code a provider sends back', async () => {
    const server = await serve('info', { hotRoutes, slowMs: 10_000 });
    try {
      await server.call('GET', '/oidc/callback?state=s1&code=the-providers-code&iss=https%3A%2F%2Fidp');
      await server.call('GET', '/oidc/callback?code=another-code&state=s2');
      await server.call('GET', '/getUserTokens?email=a%40b.test&token=secret-token');
      await server.call('GET', '/other?barcode=kept&zipcode=kept');
      const urls = server.lines.map((line) => line.req?.url);
      expect(urls).toEqual([
        '/oidc/callback?state=s1&code=[Redacted]&iss=https%3A%2F%2Fidp',
        '/oidc/callback?code=[Redacted]&state=s2',
        '/getUserTokens?email=a%40b.test&token=[Redacted]',
        '/other?barcode=kept&zipcode=kept',
      ]);
      expect(JSON.stringify(server.lines)).not.toMatch(/the-providers-code|another-code|secret-token/);
    } finally {
      await server.close();
    }
  });
});
