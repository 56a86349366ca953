import { Injectable } from '@nestjs/common';
import type { InternalAnswerOf } from '@uis/proto';
import { AuditLogRepository } from '../audit/audit-log.repository';
import { RecordsDb } from '../db/records-db';
import { DeviceChecksRepository } from '../device-checks/device-checks.repository';
import { ExposureRepository } from '../exposure/exposure.repository';
import { MessagesRepository } from '../messages/messages.repository';
import { PixelsRepository } from '../pixels/pixels.repository';
import { PlaybackRepository } from '../playback/playback.repository';
import { RecordSequencesRepository } from '../record-sequences.repository';
import { WithdrawalsRepository } from '../withdrawals/withdrawals.repository';

/** The `res` of both internal delete routes. */
type Done = InternalAnswerOf<'recordsSessionDataDelete'>;

/**
 * Removing records when what they belong to goes away. Both deletes are idempotent (a second call
 * finds nothing and succeeds), so studies and auth can simply retry after a failure elsewhere.
 */
@Injectable()
export class RecordsDeletionService {
  constructor(
    private readonly db: RecordsDb,
    private readonly sequences: RecordSequencesRepository,
    private readonly messages: MessagesRepository,
    private readonly pixels: PixelsRepository,
    private readonly playback: PlaybackRepository,
    private readonly audit: AuditLogRepository,
    private readonly withdrawals: WithdrawalsRepository,
    private readonly deviceChecks: DeviceChecksRepository,
    private readonly exposure: ExposureRepository,
  ) {}

  /**
   * A session (or every session of a group) was deleted in studies: its records, audit log,
   * withdrawals, device checks, exposure log and `seq` counters, in one transaction; counts the records. The
   * counters go first: an append waits on its counter until this commits, then starts the session afresh.
   */
  async deleteSessions(sessionIds: readonly string[]): Promise<Done> {
    const ids = [...new Set(sessionIds)];
    const removed = await this.db.transaction(async (tx) => {
      await this.sequences.deleteSessions(tx, ids);
      let records = 0;
      for (const table of [this.messages, this.pixels, this.playback])
        records += await table.deleteSessions(tx, ids);
      for (const table of [this.audit, this.withdrawals, this.deviceChecks, this.exposure])
        await table.deleteSessions(tx, ids);
      return records;
    });
    return { message: `Deleted ${removed} records of ${sessionIds.length} sessions.` };
  }

  /**
   * The right to erasure: every message, click and playback entry the user wrote, in any session. Rows are matched
   * by the author's user id, which every row carries (the e-mail may be missing on appended rows).
   * Audit entries go too, both those of the user's own changes and those about records the user
   * wrote (their `before` holds the record's text and the user's e-mail); and the withdrawals,
   * device checks and exposure events that name them. One transaction; counts the records.
   */
  async deleteUser(userId: string): Promise<Done> {
    const removed = await this.db.transaction(async (tx) => {
      let records = 0;
      for (const table of [this.messages, this.pixels, this.playback])
        records += await table.deleteByAuthor(tx, userId);
      await this.audit.deleteAbout(tx, userId);
      for (const table of [this.withdrawals, this.deviceChecks, this.exposure])
        await table.deleteByAuthor(tx, userId);
      return records;
    });
    return { message: `Deleted ${removed} records of the user.` };
  }
}
