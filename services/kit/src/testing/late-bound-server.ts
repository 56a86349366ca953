import type { INestApplication } from '@nestjs/common';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server listening at once on a port the OS picks, serving a Nest app given later: for two
 * services that must each know the other's URL before either is built. A port asked for first and
 * listened on after the build can be taken in between by another process (CI saw EADDRINUSE).
 */
export interface LateBoundServer {
  url: string;
  /** Initialises `app` and answers with it from now on (503 until then). */
  serve(app: INestApplication): Promise<void>;
  close(): Promise<void>;
}

export async function lateBoundServer(): Promise<LateBoundServer> {
  let handler: http.RequestListener | undefined;
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async serve(app) {
      await app.init();
      handler = app.getHttpAdapter().getInstance() as http.RequestListener;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
