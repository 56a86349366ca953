import { notFound } from '@uis/kit';
import { RECORD_LIST_PAGE_ROWS } from '@uis/proto';
import type { Pool } from 'pg';
import { Column, CreateDateColumn, PrimaryGeneratedColumn, type Repository } from 'typeorm';

/**
 * What every kind of record of a session has (a table per kind; indexes and the order key's
 * identity are in the migrations): its id, its place in the session, who wrote it and when.
 */
export abstract class SessionRecordEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /**
   * The order key, within a session; Postgres assigns it (messages and playback count it per
   * session, as their answers show it: migration 1795700000000). A bigint, so TypeORM reads it as text.
   */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'author_user_id', type: 'uuid' })
  authorUserId!: string;

  @Column({ name: 'author_email', type: 'text' })
  authorEmail!: string;

  @Column({ type: 'text' })
  name!: string;

  /** The server's clock when the record was stored: the record's `time`. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** One page of a session's list: its records, and the cursor of the next page (null on the last). */
export interface ListPage<R> {
  rows: R[];
  next: string | null;
}

/**
 * A page of a session's records in order (RECORD_LIST_PAGING): `read` gives the rows whose order key
 * is past `afterSeq`, oldest first, `limit` at most; a cursor is the id of a record of this session
 * (its order key is looked up here: anything else is a 404). One row more than a page is read, so
 * the last page says so without a further, empty one.
 */
export async function listPage<R extends { id: string }>(
  records: Repository<SessionRecordEntity>,
  sessionId: string,
  after: string | undefined,
  read: (afterSeq: string, limit: number) => Promise<R[]>,
): Promise<ListPage<R>> {
  let afterSeq = '0';
  if (after !== undefined) {
    const cursor = await records.findOne({ select: { seq: true }, where: { id: after, sessionId } });
    if (!cursor) throw notFound('after: no such record in this session (start again from the first page).');
    afterSeq = cursor.seq;
  }
  const rows = await read(afterSeq, RECORD_LIST_PAGE_ROWS + 1);
  if (rows.length <= RECORD_LIST_PAGE_ROWS) return { rows, next: null };
  const page = rows.slice(0, RECORD_LIST_PAGE_ROWS);
  return { rows: page, next: page.at(-1)!.id };
}

/**
 * Every record of a session in order, read `pageRows` at a time along the order key (keyset
 * paging), so an export of a long session never holds it in memory.
 * Each page is read with pg's callback API and hydrated as TypeORM's find would (its metadata and
 * driver), not with find: pg's promise API, which TypeORM queries through, stores each query's
 * callback as `query.callback = (err, res) => ...`, and V8 allocates a function literal assigned to
 * a property in the old generation. Dead once its query is answered, that closure still keeps the
 * query's rows alive through minor collections until the next full one, so every page was promoted:
 * a million-record export grew the old generation, and records' RSS, by 100 to 150 MB of dead rows
 * (docs/bench/study-export.md).
 */
export async function* recordsInOrder<T extends SessionRecordEntity>(
  records: Repository<T>,
  sessionId: string,
  pageRows: number,
): AsyncGenerator<T> {
  const { metadata } = records;
  const { driver } = records.manager.connection;
  const pool = (driver as unknown as { master: Pool }).master;
  const nameOf = (property: string) => metadata.findColumnWithPropertyName(property)!.databaseName;
  const seq = nameOf('seq');
  const table = [metadata.schema, metadata.tableName].filter((part) => part !== undefined);
  const sql =
    `SELECT ${metadata.columns.map((column) => driver.escape(column.databaseName)).join(', ')} ` +
    `FROM ${table.map((part) => driver.escape(part)).join('.')} ` +
    `WHERE ${driver.escape(nameOf('sessionId'))} = $1 AND ${driver.escape(seq)} > $2 ` +
    `ORDER BY ${driver.escape(seq)} LIMIT $3`;
  let after = '0';
  for (;;) {
    const page = await rowsOf(pool, sql, [sessionId, after, pageRows]);
    for (const row of page) {
      const record = metadata.create() as T;
      for (const column of metadata.columns) {
        column.setEntityValue(record, driver.prepareHydratedValue(row[column.databaseName], column));
      }
      yield record;
    }
    const last = page.at(-1);
    if (!last || page.length < pageRows) return;
    after = last[seq] as string;
  }
}

/** A query's rows, through pg's callback API (recordsInOrder says why). */
function rowsOf(pool: Pool, sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    pool.query<Record<string, unknown>>(sql, values, (error, result) =>
      error ? reject(error) : resolve(result.rows),
    );
  });
}
