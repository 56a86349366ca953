import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/** Something SQL runs on: the service's connection pool, or one transaction (RecordsDb.transaction). */
export interface Queryable {
  query<T = unknown>(sql: string, values?: readonly unknown[]): Promise<T[]>;
}

/** One transaction's connection, for the repositories' methods that take a `tx`. */
export class Tx implements Queryable {
  constructor(private readonly manager: EntityManager) {}

  query<T = unknown>(sql: string, values: readonly unknown[] = []): Promise<T[]> {
    return this.manager.query<T[]>(sql, [...values]);
  }
}

/**
 * Records' one way to Postgres: hand-written SQL, run by the repositories only (TypeORM is here for
 * the pool, the transactions and the migrations). A DELETE or UPDATE whose count matters is written
 * `WITH d AS (... RETURNING 1) SELECT count(*)`, so every statement answers rows.
 */
@Injectable()
export class RecordsDb implements Queryable {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  query<T = unknown>(sql: string, values: readonly unknown[] = []): Promise<T[]> {
    return this.dataSource.query<T[]>(sql, [...values]);
  }

  /** `work` in one transaction: it commits when `work` resolves, and rolls back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new Tx(manager)));
  }

  /**
   * A query's rows through pg's callback API, for the exports' page reads: pg's promise API, which
   * the other calls go through, stores each query's callback as `query.callback = (err, res) => ...`,
   * and V8 allocates a function literal assigned to a property in the old generation. Dead once its
   * query is answered, that closure still keeps the query's rows alive through minor collections
   * until the next full one, so every page was promoted: a million-record export grew records' RSS
   * by 100 to 150 MB of dead rows (docs/bench/study-export.md).
   */
  async leanRows<T>(sql: string, values: readonly unknown[]): Promise<T[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      // The runner's connection is pg's own client (QueryRunner.connect answers it).
      const client = (await runner.connect()) as PoolClient;
      return await new Promise<T[]>((resolve, reject) => {
        client.query(sql, [...values], (error, result) =>
          error ? reject(error) : resolve(result.rows as T[]),
        );
      });
    } finally {
      await runner.release();
    }
  }
}
