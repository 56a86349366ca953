import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { routeList } from '@uis/proto';

// The app bundles proto's TypeScript sources; this config (run by Node) reads its build, made first by tsc -b.
const protoSources = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

// `npm run dev`: the API of `npm start` answers every path of proto's route table, so one origin works.
const api = 'http://127.0.0.1:8443';
const proxy: Record<string, string | ProxyOptions> = {
  '/assets': api,
  '/socket.io': { target: 'ws://127.0.0.1:9000', ws: true },
  '/stream': 'http://127.0.0.1:9001',
};
// Parameterised paths (/assets/:sessionId/:file) are covered by their prefix above.
for (const route of routeList) if (!route.path.includes(':')) proxy[route.path] = api;

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@uis/proto': protoSources } },
  // Built files under /static, so /assets stays the videos' path (content) at the gateway too.
  build: { assetsDir: 'static' },
  server: { port: 5173, proxy },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
