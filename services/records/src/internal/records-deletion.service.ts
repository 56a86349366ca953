import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { InternalAnswerOf } from '@uis/proto';
import { DataSource, In, type FindOptionsWhere } from 'typeorm';
import { AuditLogEntity } from '../audit/audit-log.entity';
import { DeviceCheckEntity } from '../device-checks/device-check.entity';
import { MessageEntity } from '../messages/message.entity';
import { PixelEntity } from '../pixels/pixel.entity';
import { PlaybackEntity } from '../playback/playback.entity';
import { WithdrawalEntity } from '../withdrawals/withdrawal.entity';
import type { SessionRecordEntity } from '../session-record';

/** The `res` of both internal delete routes. */
type Done = InternalAnswerOf<'recordsSessionDataDelete'>;

/**
 * Removing records when what they belong to goes away. Both deletes are idempotent (a second call
 * finds nothing and succeeds), so studies and auth can simply retry after a failure elsewhere.
 */
@Injectable()
export class RecordsDeletionService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A session (or every session of a group) was deleted in studies: its records, audit log and counters. */
  async deleteSessions(sessionIds: readonly string[]): Promise<Done> {
    const ids = [...new Set(sessionIds)];
    const where = { sessionId: In(ids) };
    const removed = await this.deleteWhere(where, where, ids);
    return { message: `Deleted ${removed} records of ${sessionIds.length} sessions.` };
  }

  /**
   * The right to erasure: every message, click and playback entry the user wrote, in any session. Rows are matched
   * by the author's user id, which every row carries (the e-mail may be missing on appended rows).
   * Audit entries go too, both those of the user's own changes and those about records the user
   * wrote (their `before` holds the record's text and the user's e-mail).
   */
  async deleteUser(userId: string): Promise<Done> {
    const removed = await this.deleteWhere({ authorUserId: userId }, [
      { authorUserId: userId },
      { recordAuthorUserId: userId },
    ]);
    return { message: `Deleted ${removed} records of the user.` };
  }

  /**
   * Deletes the records `where` and the audit entries `auditWhere` in one transaction, and the `seq`
   * counters of the sessions `sessionIds` (first: an append waits on the counter until this commits,
   * then starts the session afresh); counts the records.
   */
  private deleteWhere(
    where: FindOptionsWhere<SessionRecordEntity>,
    auditWhere: FindOptionsWhere<AuditLogEntity> | FindOptionsWhere<AuditLogEntity>[],
    sessionIds: readonly string[] = [],
  ) {
    return this.db.transaction(async (tx) => {
      if (sessionIds.length > 0) {
        await tx.query(`DELETE FROM record_sequences WHERE session_id = ANY($1::uuid[])`, [sessionIds]);
      }
      let removed = 0;
      for (const kind of [MessageEntity, PixelEntity, PlaybackEntity]) {
        removed += (await tx.delete(kind, where)).affected ?? 0;
      }
      // TypeORM's delete() takes no list of conditions (an OR); the query builder does.
      await tx.createQueryBuilder().delete().from(AuditLogEntity).where(auditWhere).execute();
      // The withdrawal log: the session's, or the user's own (it names them).
      await tx.delete(WithdrawalEntity, where);
      // The pre-session checks: they name their author too.
      await tx.delete(DeviceCheckEntity, where);
      return removed;
    });
  }
}
