// Each room keeps its tests: the launcher's beside it in launcher/test, the tests spanning services in
// system-tests (the benchmarks have none).
module.exports = require('../jest.preset')(__dirname, {
  testMatch: ['<rootDir>/launcher/test/**/*.test.ts', '<rootDir>/system-tests/**/*.test.ts'],
});
