import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
import { z } from 'zod';
import { envVars, loadConfig } from '../config';
import { Readiness } from '../health/readiness';
import { PG_ERRORS, pgErrorCode } from './pg-errors';

export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema: no service reads another's tables. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
  poolSize?: number;
  /**
   * Run pending migrations before serving (the default: `npm start`, tests, a service run alone).
   * Compose and Kubernetes run each service's `migrate` entry once instead, so replicas do not race
   * at boot; a service that then finds migrations pending refuses to start.
   */
  migrateOnStart?: boolean;
}

/** DATABASE_URL and MIGRATE_ON_START: what every service with tables reads (README's table). */
export const databaseEnv = z.object({
  DATABASE_URL: envVars.databaseUrl(),
  MIGRATE_ON_START: envVars.flag(true),
});

const DUPLICATE = new Set<string>([PG_ERRORS.uniqueViolation, PG_ERRORS.duplicateSchema]);

/** Creates the schema if needed; two replicas starting at once may race, which is harmless. */
async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    if (!DUPLICATE.has(pgErrorCode(error) ?? '')) throw error;
  } finally {
    await client.end();
  }
}

/** Runs pending migrations under an advisory lock so replicas never migrate concurrently. */
async function migrate(dataSource: DataSource, schema: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`uis-migrations:${schema}`]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock(hashtext($1))', [`uis-migrations:${schema}`])
      .catch(() => undefined);
    await runner.release();
  }
}

/** TypeORM on the service's own schema: unqualified SQL lands there, never in public. */
const dataSourceOptions = (options: DatabaseOptions): DataSourceOptions => ({
  type: 'postgres',
  url: options.url,
  schema: options.schema,
  entities: options.entities,
  migrations: options.migrations,
  migrationsTableName: 'migrations',
  synchronize: false,
  migrationsRun: false,
  // Migrations use the built-in gen_random_uuid(); never install uuid-ossp into a service schema.
  installExtensions: false,
  logging: false,
  extra: {
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    options: `-c search_path="${options.schema}"`,
  },
});

/** The schema is behind its migrations and the service may not run them: waiting will not help. */
class PendingMigrationsError extends Error {
  override name = 'PendingMigrationsError';
  constructor(schema: string) {
    super(
      `The ${schema} schema has migrations pending: run the service's migrate entry first (MIGRATE_ON_START=false).`,
    );
  }
}

/** The service's schema, migrated: what a `migrate` entry does, and a service at boot by default. */
async function openMigrated(options: DatabaseOptions): Promise<DataSource> {
  await ensureSchema(options.url, options.schema);
  const dataSource = await new DataSource(dataSourceOptions(options)).initialize();
  try {
    if (options.migrateOnStart ?? true) await migrate(dataSource, options.schema);
    else if (await dataSource.showMigrations()) throw new PendingMigrationsError(options.schema);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * A service's `migrate` entry (`node dist/src/migrate.js`): runs its pending migrations and exits,
 * 0 when the schema is current, 1 with the reason otherwise. Compose and the Kubernetes Job run it
 * once before the services.
 */
export async function runMigrations(
  service: string,
  options: (url: string) => Omit<DatabaseOptions, 'url' | 'migrateOnStart'>,
): Promise<void> {
  try {
    const { DATABASE_URL } = loadConfig(databaseEnv.pick({ DATABASE_URL: true }));
    const dataSource = await openMigrated({
      ...options(DATABASE_URL),
      url: DATABASE_URL,
      migrateOnStart: true,
    });
    const applied = await dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM migrations');
    await dataSource.destroy();
    console.log(
      `${service}: schema ${options(DATABASE_URL).schema} is current (${applied[0]?.n ?? 0} migrations)`,
    );
    process.exit(0);
  } catch (error) {
    console.error(`${service}: migration failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

/**
 * TypeORM on the service's own schema. Migrations run before the module is ready (unless the
 * deployment runs them beforehand), so the app never serves on an old schema; `synchronize` is
 * never used.
 */
@Module({})
export class DatabaseModule {
  static forService(options: DatabaseOptions): DynamicModule {
    const typeorm = TypeOrmModule.forRootAsync({
      // A database still starting (compose, Kubernetes) is waited for; pending migrations are not.
      useFactory: () => ({
        ...dataSourceOptions(options),
        toRetry: (error: unknown) => !(error instanceof PendingMigrationsError),
      }),
      dataSourceFactory: () => openMigrated(options),
    });
    return {
      module: DatabaseModule,
      imports: [typeorm],
      providers: [
        {
          provide: 'DATABASE_READINESS',
          inject: [getDataSourceToken(), Readiness],
          useFactory: (dataSource: DataSource, readiness: Readiness) =>
            readiness.add('database', () => dataSource.query('SELECT 1')),
        },
      ],
      exports: [typeorm],
    };
  }
}
