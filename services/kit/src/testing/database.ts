import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Test helpers: every test file gets a database of its own on the real Postgres. */

/** Where the tests look when DATABASE_URL / REDIS_URL are unset (CI's and a developer's servers). */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

// The root `npm test` sets both, to its own servers when nothing answered on the defaults
// (scripts/src/test-run); an empty value counts as unset.
export const TEST_DATABASE_URL = process.env.DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
export const TEST_REDIS_URL = process.env.REDIS_URL || DEFAULT_TEST_REDIS_URL;

export const randomSuffix = () => randomBytes(6).toString('hex');

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const withUrl = (base: string, database: string) => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
};

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `uis_test_${label.replace(/\W/g, '_').toLowerCase()}_${randomSuffix()}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withUrl(TEST_DATABASE_URL, name),
    async drop() {
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
