import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { StudyExportRow, Withdrawal } from '@uis/proto';
import { AuditLogRepository } from '../audit/audit-log.repository';
import type { RecordAuthor } from '../author';
import { RecordsDb } from '../db/records-db';
import { DeviceChecksRepository } from '../device-checks/device-checks.repository';
import type { ParticipantIds } from '../export/participant-ids';
import { ExposureRepository } from '../exposure/exposure.repository';
import { MessagesRepository } from '../messages/messages.repository';
import { PixelsRepository } from '../pixels/pixels.repository';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import { WithdrawalsRepository, toWithdrawal, toWithdrawalRow } from './withdrawals.repository';

/** Withdrawals: carrying one out (studies' call), and the owner's list and export of them. */
@Injectable()
export class WithdrawalsService {
  constructor(
    private readonly withdrawals: WithdrawalsRepository,
    private readonly messages: MessagesRepository,
    private readonly pixels: PixelsRepository,
    private readonly audit: AuditLogRepository,
    private readonly deviceChecks: DeviceChecksRepository,
    private readonly exposure: ExposureRepository,
    private readonly db: RecordsDb,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /**
   * Studies has checked that `author` is a participant of the session. Their messages and clicks
   * there, the audit entries about them (their `before` holds the record's text), their device
   * checks and their exposure events go, and the withdrawal is logged with the counts of messages and clicks, in one
   * transaction. A second call with nothing left to delete (studies retrying after a failure of its
   * own) answers the withdrawal already logged.
   */
  withdraw(sessionId: string, author: RecordAuthor): Promise<Withdrawal> {
    return this.db.transaction(async (tx) => {
      // One withdrawal of a person from a session at a time: a concurrent retry waits for this one.
      await this.withdrawals.lockPerson(tx, sessionId, author.userId);
      const messages = await this.messages.deleteAuthorInSession(tx, sessionId, author.userId);
      const clicks = await this.pixels.deleteAuthorInSession(tx, sessionId, author.userId);
      await this.audit.deleteAboutAuthorInSession(tx, sessionId, author.userId);
      await this.deviceChecks.deleteAuthorInSession(tx, sessionId, author.userId);
      await this.exposure.deleteAuthorInSession(tx, sessionId, author.userId);
      if (messages === 0 && clicks === 0) {
        const earlier = await this.withdrawals.latestOf(tx, sessionId, author.userId);
        if (earlier) return toWithdrawal(earlier);
      }
      return toWithdrawal(await this.withdrawals.insert(tx, sessionId, author, { messages, clicks }));
    });
  }

  /** The owner's list, oldest first, a page at a time. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<Withdrawal>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.withdrawals, sessionId, after);
    return { rows: rows.map(toWithdrawal), next };
  }

  /** withdrawals.csv's rows of a session, a page at a time. */
  async *exportRows(
    sessionId: string,
    people: ParticipantIds,
  ): AsyncGenerator<StudyExportRow<'withdrawals'>> {
    for await (const row of this.withdrawals.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toWithdrawalRow(row, people);
    }
  }
}
