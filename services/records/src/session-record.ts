import { notFound } from '@uis/kit';
import { RECORD_LIST_PAGE_ROWS } from '@uis/proto';
import type { Queryable, RecordsDb } from './db/records-db';

/** What every row of a session's records has (a table per kind): its id and its place in the session. */
export interface SessionRecordRow {
  id: string;
  /** The order key within a session (a bigint, so text). */
  seq: string;
}

/** One page of a session's list: its records, and the cursor of the next page (null on the last). */
export interface ListPage<R> {
  rows: R[];
  next: string | null;
}

/**
 * The statements every table of a session's records has (messages, pixels, playback, audit_log,
 * withdrawals, device_checks: each with id, seq, session_id, author_user_id, author_email, name and
 * created_at; indexes in the migrations), for the repository of `table`, whose rows are `columns`
 * (its one SELECT list, aliased as its Row type reads them; `seq` among them).
 */
export class SessionRecordTable<Row extends SessionRecordRow> {
  private readonly pageSql: string;

  constructor(
    protected readonly db: RecordsDb,
    private readonly table: string,
    protected readonly columns: string,
  ) {
    this.pageSql = `SELECT ${columns} FROM ${table} WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`;
  }

  /** The order key of the record `id` of the session; null when it is not one of its records. */
  async seqOf(sessionId: string, id: string): Promise<string | null> {
    const [row] = await this.db.query<{ seq: string }>(
      `SELECT seq FROM ${this.table} WHERE id = $1 AND session_id = $2`,
      [id, sessionId],
    );
    return row?.seq ?? null;
  }

  /** The session of the record `id`; null when there is no such record. */
  async sessionOf(id: string): Promise<string | null> {
    const [row] = await this.db.query<{ sessionId: string }>(
      `SELECT session_id AS "sessionId" FROM ${this.table} WHERE id = $1`,
      [id],
    );
    return row?.sessionId ?? null;
  }

  /** The record as it is inside `tx`, locked until the transaction ends; null when it is gone. */
  async lockedInTx(tx: Queryable, id: string): Promise<Row | null> {
    const [row] = await tx.query<Row>(`SELECT ${this.columns} FROM ${this.table} WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return row ?? null;
  }

  /** The session's records after the order key `afterSeq`, oldest first, `limit` at most. */
  page(sessionId: string, afterSeq: string, limit: number): Promise<Row[]> {
    return this.db.query<Row>(this.pageSql, [sessionId, afterSeq, limit]);
  }

  /**
   * Every record of a session in order, read `pageRows` at a time along the order key (keyset
   * paging, pg's callback API: RecordsDb.leanRows), so an export of a long session never holds it.
   */
  async *inOrder(sessionId: string, pageRows: number): AsyncGenerator<Row> {
    let after = '0';
    for (;;) {
      const page = await this.db.leanRows<Row>(this.pageSql, [sessionId, after, pageRows]);
      yield* page;
      const last = page.at(-1);
      if (!last || page.length < pageRows) return;
      after = last.seq;
    }
  }

  /** How many records these sessions hold. */
  async countSessions(sessionIds: readonly string[]): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.table} WHERE session_id = ANY($1::uuid[])`,
      [sessionIds],
    );
    return row?.n ?? 0;
  }

  /** Deletes the records of these sessions; how many. */
  deleteSessions(tx: Queryable, sessionIds: readonly string[]): Promise<number> {
    return this.countDeleted(tx, `session_id = ANY($1::uuid[])`, [sessionIds]);
  }

  /** Deletes every record `userId` wrote, in any session; how many. */
  deleteByAuthor(tx: Queryable, userId: string): Promise<number> {
    return this.countDeleted(tx, `author_user_id = $1`, [userId]);
  }

  /** Deletes the records `userId` wrote in one session; how many. */
  deleteAuthorInSession(tx: Queryable, sessionId: string, userId: string): Promise<number> {
    return this.countDeleted(tx, `session_id = $1 AND author_user_id = $2`, [sessionId, userId]);
  }

  protected async countDeleted(tx: Queryable, where: string, values: readonly unknown[]): Promise<number> {
    const [row] = await tx.query<{ n: number }>(
      `WITH d AS (DELETE FROM ${this.table} WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM d`,
      values,
    );
    return row?.n ?? 0;
  }
}

/**
 * A page of a session's records in order (RECORD_LIST_PAGING): a cursor is the id of a record of this
 * session in `records` (its order key is looked up there: anything else is a 404). One row more than
 * a page is read, so the last page says so without a further, empty one.
 */
export async function listPage<Row extends SessionRecordRow>(
  records: SessionRecordTable<Row>,
  sessionId: string,
  after: string | undefined,
): Promise<ListPage<Row>> {
  let afterSeq = '0';
  if (after !== undefined) {
    const seq = await records.seqOf(sessionId, after);
    if (seq === null)
      throw notFound('after: no such record in this session (start again from the first page).');
    afterSeq = seq;
  }
  const rows = await records.page(sessionId, afterSeq, RECORD_LIST_PAGE_ROWS + 1);
  if (rows.length <= RECORD_LIST_PAGE_ROWS) return { rows, next: null };
  const page = rows.slice(0, RECORD_LIST_PAGE_ROWS);
  return { rows: page, next: page.at(-1)!.id };
}
