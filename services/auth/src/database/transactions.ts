import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** Runs work in one transaction; the repositories take its `tx` where they may run inside one. */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  run<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx));
  }
}
