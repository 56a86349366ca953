import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** Where a repository sends its statements: the pool, or the connection of a transaction. */
export type Sql = Pick<EntityManager, 'query'>;

/** An UPDATE or DELETE answers its rows and how many it changed (TypeORM's query runner). */
export type Changed<Row = unknown> = [Row[], number];

/** Runs work in one transaction; the repositories take its `tx` as their `Sql`. */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  run<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx));
  }
}
