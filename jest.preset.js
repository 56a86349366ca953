// Shared Jest setup: ts-jest compiles TypeScript (with decorator metadata for NestJS), and workspace
// packages resolve to their sources so tests never need a build first.
const path = require('path');

const root = __dirname;
const workspaceSources = {
  '@uis/proto/browser': 'proto/src/browser.ts',
  '@uis/proto': 'proto/src',
  '@uis/live-client': 'services/live-client/src',
  '@uis/kit/testing': 'services/kit/src/testing',
  '@uis/kit': 'services/kit/src',
  '@uis/mailer/testing': 'services/mailer/src/testing',
  '@uis/mailer': 'services/mailer/src',
  '@uis/auth/testing': 'services/auth/test/support',
  '@uis/auth': 'services/auth/src',
  '@uis/studies': 'services/studies/src',
  '@uis/content': 'services/content/src',
  '@uis/records': 'services/records/src',
  '@uis/realtime/testing': 'services/realtime/test/support',
  '@uis/realtime': 'services/realtime/src',
  '@uis/signal/testing': 'services/signal/src/testing',
  '@uis/signal': 'services/signal/src',
};

module.exports = (packageDir, overrides = {}) => ({
  rootDir: packageDir,
  testEnvironment: 'node',
  // One suffix scheme: `.test.ts` for every jest and vitest test, `.spec.ts` for Playwright's browser specs.
  testMatch: ['<rootDir>/{src,test}/**/*.test.ts'],
  transform: {
    // Transpile only (types are checked by `npm run build`); decorator metadata for NestJS DI.
    '^.+\\.ts$': [
      'ts-jest',
      {
        isolatedModules: true,
        tsconfig: {
          target: 'ES2022',
          module: 'commonjs',
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          sourceMap: true,
        },
      },
    ],
  },
  moduleNameMapper: Object.fromEntries(
    Object.entries(workspaceSources).map(([name, dir]) => [`^${name}$`, path.join(root, dir)]),
  ),
  testTimeout: 30_000,
  // A suite that fails while starting its servers can leave them open: the run must still end and
  // report (CI once waited on such a jest until its time ran out).
  forceExit: true,
  ...overrides,
});
