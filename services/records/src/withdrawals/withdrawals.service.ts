import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { StudyExportRow, Withdrawal } from '@uis/proto';
import { MoreThan, type Repository } from 'typeorm';
import type { RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, recordsInOrder, type ListPage } from '../session-record';
import { WithdrawalEntity, toWithdrawal, toWithdrawalRow } from './withdrawal.entity';

/**
 * The participant's messages and clicks in session $1, the audit entries about them (their
 * `before` holds the record's text) and their device checks, deleted; the counts of messages and clicks. Statements in WITH
 * run once each, whether or not the query reads them.
 */
const DELETE_SQL = `
  WITH deleted_messages AS (
    DELETE FROM messages WHERE session_id = $1 AND author_user_id = $2 RETURNING 1
  ), deleted_pixels AS (
    DELETE FROM pixels WHERE session_id = $1 AND author_user_id = $2 RETURNING 1
  ), deleted_audit AS (
    DELETE FROM audit_log WHERE session_id = $1 AND record_author_user_id = $2 RETURNING 1
  ), deleted_device_checks AS (
    DELETE FROM device_checks WHERE session_id = $1 AND author_user_id = $2 RETURNING 1
  )
  SELECT (SELECT count(*) FROM deleted_messages)::int AS messages,
    (SELECT count(*) FROM deleted_pixels)::int AS clicks`;

/** The withdrawals table: the one place records reads and writes withdrawals. */
@Injectable()
export class WithdrawalsService {
  constructor(
    @InjectRepository(WithdrawalEntity) private readonly withdrawals: Repository<WithdrawalEntity>,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /**
   * Studies has checked that `author` is a participant of the session. Their records there go and
   * the withdrawal is logged with the counts, in one transaction. A second call with nothing left to
   * delete (studies retrying after a failure of its own) answers the withdrawal already logged.
   */
  withdraw(sessionId: string, author: RecordAuthor): Promise<Withdrawal> {
    return this.withdrawals.manager.transaction(async (tx) => {
      // One withdrawal of a person from a session at a time: a concurrent retry waits for this one.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `withdrawal:${sessionId}:${author.userId}`,
      ]);
      const [counts] = await tx.query<{ messages: number; clicks: number }[]>(DELETE_SQL, [
        sessionId,
        author.userId,
      ]);
      const { messages = 0, clicks = 0 } = counts ?? {};
      if (messages === 0 && clicks === 0) {
        const earlier = await tx.findOne(WithdrawalEntity, {
          where: { sessionId, authorUserId: author.userId },
          order: { seq: 'DESC' },
        });
        if (earlier) return toWithdrawal(earlier);
      }
      const row = tx.create(WithdrawalEntity, {
        sessionId,
        authorUserId: author.userId,
        authorEmail: author.email,
        name: author.name,
        messages,
        clicks,
      });
      return toWithdrawal(await tx.save(row));
    });
  }

  /** The owner's list, oldest first, a page at a time. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<Withdrawal>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.withdrawals, sessionId, after, (afterSeq, take) =>
      this.withdrawals.find({ where: { sessionId, seq: MoreThan(afterSeq) }, order: { seq: 'ASC' }, take }),
    );
    return { rows: rows.map(toWithdrawal), next };
  }

  /** withdrawals.csv's rows of a session, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<StudyExportRow<'withdrawals'>> {
    for await (const row of recordsInOrder(this.withdrawals, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toWithdrawalRow(row);
    }
  }
}
