import { Client } from 'pg';
import { pgErrorCode } from '@uis/kit';
import { StartupError } from '../startup-error';

/** Postgres's "database does not exist". */
const INVALID_CATALOG_NAME = '3D000';

/**
 * Makes sure the stack's database exists: the first `npm run stack` on a machine creates it (through
 * the server's `postgres` database), later runs find it. Any other failure is said plainly.
 */
export async function ensureDatabase(databaseUrl: string, log: (message: string) => void): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  try {
    await withClient(databaseUrl, (client) => client.query('SELECT 1'));
    return;
  } catch (error) {
    if (pgErrorCode(error) !== INVALID_CATALOG_NAME) throw unreachable(url, error);
  }
  url.pathname = '/postgres';
  log(`creating the database ${name}`);
  try {
    await withClient(url.toString(), (client) =>
      client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`),
    );
  } catch (error) {
    throw unreachable(url, error);
  }
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function unreachable(url: URL, error: unknown): StartupError {
  url.password = url.password ? '***' : '';
  return new StartupError(
    `Postgres at ${url.toString()} refused the stack (${(error as Error).message}). Start it, or set DATABASE_URL.`,
  );
}
