import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin, ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { routeList } from '@uis/proto';

// The app bundles proto's TypeScript sources; this config (run by Node) reads its build, made first by tsc -b.
const protoSource = (file: string) => fileURLToPath(new URL(`../proto/src/${file}`, import.meta.url));

// `npm run dev`: the API of `npm start` answers every path of proto's route table, so one origin works.
const api = 'http://127.0.0.1:8443';
const proxy: Record<string, string | ProxyOptions> = {
  '/assets': api,
  '/socket.io': { target: 'ws://127.0.0.1:9000', ws: true },
  '/stream': { target: 'http://127.0.0.1:9001', ws: true },
};
// Parameterised paths (/assets/:sessionId/:file) are covered by their prefix above.
for (const route of routeList) if (!route.path.includes(':')) proxy[route.path] = api;

/**
 * `virtual:uis-routes`: how to call each route (method, path, upload field, file answers), read from
 * proto's route table at build time, so the browser gets the table without bundling its zod schemas.
 */
function routeTable(): Plugin {
  const id = 'virtual:uis-routes';
  const resolved = `\0${id}`;
  const table = Object.fromEntries(
    routeList.map(({ name, method, path, multipartFile, produces, tokenInQuery }) => [
      name,
      { method, path, multipartFile, produces, tokenInQuery },
    ]),
  );
  return {
    name: 'uis-routes',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (source) => (source === resolved ? `export const ROUTES = ${JSON.stringify(table)};` : undefined),
  };
}

export default defineConfig({
  plugins: [react(), routeTable()],
  resolve: {
    alias: [
      // Values come from the zod-free entry only (ESLint enforces it); the index is imported for types.
      { find: /^@uis\/proto\/browser$/, replacement: protoSource('browser.ts') },
      { find: /^@uis\/proto$/, replacement: protoSource('index.ts') },
    ],
  },
  // Built files under /static, so /assets stays the videos' path (content) at the gateway too.
  // The manifest tells scripts/check-bundle-size.mjs which chunks the login route loads.
  build: { assetsDir: 'static', manifest: true },
  server: { port: 5173, proxy },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // The teardown every test file needs (unmount, real timers, unstubbed fetch, restored spies), once.
    setupFiles: ['src/testing/setup.ts'],
  },
});
