import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
import { Readiness } from '../health/readiness';

export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema: no service reads another's tables. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
  poolSize?: number;
}

const DUPLICATE = new Set(['23505', '42P06']);

/** Creates the schema if needed; two replicas starting at once may race, which is harmless. */
async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    if (!DUPLICATE.has((error as { code?: string }).code ?? '')) throw error;
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

/**
 * TypeORM on the service's own schema. Migrations run before the module is ready, so the app
 * never serves on an old schema; `synchronize` is never used.
 */
@Module({})
export class DatabaseModule {
  static forService(options: DatabaseOptions): DynamicModule {
    const { url, schema, entities, migrations } = options;
    const typeorm = TypeOrmModule.forRootAsync({
      useFactory: (): DataSourceOptions => ({
        type: 'postgres',
        url,
        schema,
        entities,
        migrations,
        migrationsTableName: 'migrations',
        synchronize: false,
        migrationsRun: false,
        // Migrations use the built-in gen_random_uuid(); never install uuid-ossp into a service schema.
        installExtensions: false,
        logging: false,
        // Unqualified SQL (migrations, raw queries) lands in the service's schema, never in public.
        extra: {
          max: options.poolSize ?? 10,
          connectionTimeoutMillis: 5_000,
          options: `-c search_path="${schema}"`,
        },
      }),
      dataSourceFactory: async (dataSourceOptions) => {
        await ensureSchema(url, schema);
        const dataSource = await new DataSource(dataSourceOptions!).initialize();
        await migrate(dataSource, schema);
        return dataSource;
      },
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
