import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * A transaction spanning tables: `work` gets a handle that the repositories' methods take, and it
 * commits when `work` resolves (rolls back when it throws). Callers pass the handle on, never query it.
 */
@Injectable()
export class ContentTransactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  run<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
