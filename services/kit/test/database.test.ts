import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DatabaseModule, KitModule, Readiness, createLogger, Metrics } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(db: QueryRunner) {
    await db.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  }
  async down(db: QueryRunner) {
    await db.query('DROP TABLE notes');
  }
}

@Module({})
class Root {}

const appOn = (url: string, migrateOnStart = true) => {
  const root: DynamicModule = {
    module: Root,
    imports: [
      KitModule.forRoot({
        service: 'records',
        logger: createLogger({ service: 'records', level: 'silent' }),
        jwtSecret: 'j'.repeat(32),
        serviceToken: 's'.repeat(32),
        urlOf: () => 'http://127.0.0.1:1',
        metrics: new Metrics('records'),
      }),
      DatabaseModule.forService({
        url,
        schema: 'notes',
        entities: [],
        migrations: [CreateNotes1700000000000],
        migrateOnStart,
      }),
    ],
  };
  return NestFactory.createApplicationContext(root, { logger: false, abortOnError: false });
};

describe('DatabaseModule', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('kit');
  });
  afterAll(() => db.drop());

  it("runs migrations in the service's own schema before the app is ready, once, even when replicas start together", async () => {
    const [a, b] = await Promise.all([appOn(db.url), appOn(db.url)]);
    await expect(a.get(Readiness).failures()).resolves.toEqual([]);
    await Promise.all([a.close(), b.close()]);

    const client = new Client({ connectionString: db.url });
    await client.connect();
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = 'notes' ORDER BY table_name",
    );
    const applied = await client.query('SELECT name FROM notes.migrations');
    await client.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual(['migrations', 'notes']);
    expect(applied.rows).toEqual([{ name: 'CreateNotes1700000000000' }]);

    // A restart finds nothing left to run; nor does one that leaves migrations to the migrate entry.
    const again = await appOn(db.url);
    await again.close();
    const deployed = await appOn(db.url, false);
    await deployed.close();
  });

  it('refuses to serve on an old schema when the deployment runs migrations itself (MIGRATE_ON_START=false)', async () => {
    const fresh = await createTestDatabase('kit_pending');
    try {
      await expect(appOn(fresh.url, false)).rejects.toThrow(
        "The notes schema has migrations pending: run the service's migrate entry first (MIGRATE_ON_START=false).",
      );
    } finally {
      await fresh.drop();
    }
  });
});
