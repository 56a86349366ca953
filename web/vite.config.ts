import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { API_DOCS_PATH, openApiDocument, routeList } from '@uis/proto';

// The app bundles proto's TypeScript sources; this config (run by Node) reads its build, made first by tsc -b.
const protoSource = (file: string) => fileURLToPath(new URL(`../proto/src/${file}`, import.meta.url));
const liveClientSource = fileURLToPath(new URL('../services/live-client/src/index.ts', import.meta.url));

// react-router's package exports name its development build under every condition (upstream issue
// remix-run/react-router#14102), so a production build would ship its dev warnings: the build takes
// the production files instead (the same code with ENABLE_DEV_WARNINGS off). Both entries, or the
// router would be bundled twice.
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

// `npm run dev`: the API of `npm start` answers every path of proto's route table, so one origin works.
const api = 'http://127.0.0.1:8443';
const proxy: Record<string, string | ProxyOptions> = {
  '/assets': api,
  // npm start serves the API docs from the last build (the dev server does not make them).
  [API_DOCS_PATH]: api,
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
  // Most paths are `/<name>`: those are left out here and filled in when the module loads, which
  // keeps the table (part of the login route's budget) small as routes are added.
  const table = Object.fromEntries(
    routeList.map(({ name, method, path, multipartFile, produces, tokenInQuery }) => [
      name,
      { method, path: path === `/${name}` ? undefined : path, multipartFile, produces, tokenInQuery },
    ]),
  );
  const module = `export const ROUTES = Object.fromEntries(Object.entries(${JSON.stringify(table)}).map(([name, route]) => [name, { path: '/' + name, ...route }]));`;
  return {
    name: 'uis-routes',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (source) => (source === resolved ? module : undefined),
  };
}

/**
 * /api/docs/: the REST API's OpenAPI document (proto's openApiDocument, made from the route table at
 * build time) and Swagger UI to read and try it, as static files of the build, so every way the
 * app is served (npm start, the gateway) serves them, and the page needs nothing from the internet.
 */
function apiDocs(): Plugin {
  const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const fromSwaggerUi = (file: string) => fs.readFileSync(path.join(swaggerUi, file));
  const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API · User Interaction Simulator</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${API_DOCS_PATH}/docs.js"></script>
  </body>
</html>
`;
  // A file, not an inline script: the Content-Security-Policy allows scripts from 'self' only.
  const start = `window.ui = SwaggerUIBundle({ url: '${API_DOCS_PATH}/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;
  const version = (
    JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return {
    name: 'uis-api-docs',
    apply: 'build',
    generateBundle() {
      const files: Record<string, string | Uint8Array> = {
        'index.html': page,
        'docs.js': start,
        'openapi.json': `${JSON.stringify(openApiDocument(version), null, 2)}\n`,
        'swagger-ui-bundle.js': fromSwaggerUi('swagger-ui-bundle.js'),
        'swagger-ui.css': fromSwaggerUi('swagger-ui.css'),
      };
      for (const [file, source] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName: `${API_DOCS_PATH.slice(1)}/${file}`, source });
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), routeTable(), apiDocs()],
  resolve: {
    alias: [
      // Values come from the zod-free entry only (ESLint enforces it); the index is imported for types.
      { find: /^@uis\/proto\/browser$/, replacement: protoSource('browser.ts') },
      { find: /^@uis\/live-client$/, replacement: liveClientSource },
      { find: /^@uis\/proto$/, replacement: protoSource('index.ts') },
      ...(command === 'build' ? reactRouterProduction : []),
    ],
  },
  // Built files under /static, so /assets stays the videos' path (content) at the gateway too.
  // The manifest tells scripts/check-bundle-size.mjs which chunks the login route loads.
  build: {
    assetsDir: 'static',
    manifest: true,
    rolldownOptions: {
      // proto's browser modules only declare (constants, texts, helpers): without this, its barrel
      // (browser.ts) would place every module it re-exports, used or not, in the login route's chunk.
      treeshake: { moduleSideEffects: [{ test: /\/proto\/src\//, sideEffects: false }] },
      // What the entry imports statically (the login route) is one chunk, not one per module shared
      // with a lazy screen: fewer requests, one gzip dictionary (about 2 kB less than nine chunks).
      output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } },
    },
  },
  server: { port: 5173, proxy },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // The teardown every test file needs (unmount, real timers, unstubbed fetch, restored spies), once.
    setupFiles: ['src/testing/setup.ts'],
  },
}));
