import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Test helpers: every test file gets a database of its own on the real Postgres. */

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

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

export { testSecrets } from './secrets';

export { describeServiceBasics } from './service-basics';
export { createAppWithOverrides } from './app-with-overrides';
export { sendInput, type Http } from './send-input';
export { freePort } from './ports';
export { waitFor } from './wait';
