// Shared Jest setup: SWC compiles TypeScript (with decorator metadata for NestJS), and workspace
// packages resolve to their sources so tests never need a build first.
const path = require('path');

const root = __dirname;
const workspaceSources = {
  '@uis/proto': 'proto/src',
  '@uis/kit/testing': 'services/kit/src/testing',
  '@uis/kit': 'services/kit/src',
  '@uis/mailer/testing': 'services/mailer/src/testing',
  '@uis/mailer': 'services/mailer/src',
  '@uis/auth': 'services/auth/src',
  '@uis/realtime': 'services/realtime/src',
  '@uis/signal': 'services/signal/src',
};

module.exports = (packageDir, overrides = {}) => ({
  rootDir: packageDir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: Object.fromEntries(
    Object.entries(workspaceSources).map(([name, dir]) => [`^${name}$`, path.join(root, dir)]),
  ),
  testTimeout: 30_000,
  ...overrides,
});
