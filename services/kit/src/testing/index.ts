export {
  DEFAULT_TEST_DATABASE_URL,
  DEFAULT_TEST_REDIS_URL,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestDatabase,
  randomSuffix,
  type TestDatabase,
} from './database';
export { testSecrets } from './secrets';

export { describeServiceBasics } from './service-basics';
export { createAppWithOverrides } from './app-with-overrides';
export { sendInput, type Http } from './send-input';
export { freePort } from './ports';
export { lateBoundServer, type LateBoundServer } from './late-bound-server';
export { waitFor } from './wait';
export { TcpBalancer } from './tcp-balancer';
export {
  bearer,
  signedUpOf,
  testPeople,
  testUser,
  type SignedUp,
  type TestPeople,
  type TestPerson,
} from './people';
export { apiClient, type ApiAnswer, type ApiClient, type CallerToken } from './api-client';
export { arbitraryOf, invalidPayloadOf } from './arbitrary';
export { addProfile, emptyTotals, type BucketTotals } from './cpu-profile-buckets';
/** The preload that profiles a service between two SIGWINCH (see profile-on-signal.ts). */
export const PROFILE_PRELOAD = require.resolve('./profile-on-signal');
export {
  ANONYMOUS,
  CAST,
  scopeOf,
  testWorld,
  type Anonymous,
  type Caller,
  type CastName,
  type Scope,
  type SessionOptions,
  type TestWorld,
  type WorldOptions,
} from './test-world';
export { FIXTURES_DIR, TINY_MP4 } from './fixtures';
