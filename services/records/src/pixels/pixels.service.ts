import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, notFound, writeAccess, type AuthUser } from '@uis/kit';
import type { ExportTableRow, PixelRecord } from '@uis/proto';
import { AuditLogRepository } from '../audit/audit-log.repository';
import { authorOf } from '../author';
import { RecordsDb } from '../db/records-db';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import {
  PixelsRepository,
  pixelSnapshot,
  toPixelExportRow,
  toPixelRecord,
  type Click,
  type NewPixel,
} from './pixels.repository';

export type { Click, NewPixel } from './pixels.repository';

/** Clicks: who may read, write and delete them, and the audit of deletions. */
@Injectable()
export class PixelsService {
  constructor(
    private readonly pixels: PixelsRepository,
    private readonly audit: AuditLogRepository,
    private readonly db: RecordsDb,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel, a page at a time: the session's owner only (participants do not see each other's clicks). */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<PixelRecord>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.pixels, sessionId, after);
    return { rows: rows.map(toPixelRecord), next };
  }

  /** A click the owner records over REST, under their own name; counted with messages, as live clicks are. */
  async addFor(user: AuthUser, click: Click): Promise<PixelRecord> {
    // Not once the session has ended: nothing is added to a closed session.
    writeAccess(await this.access.requireOwner(user, click.sessionId));
    await this.limits.messagesAndClicks.consume(user.id, click.sessionId);
    return this.append({ ...click, ...authorOf(user) });
  }

  /**
   * One INSERT: the caller (REST above, or realtime with the author it checked) has decided who may
   * write. Takes realtime's payload as it is, so an e-mail it starts sending is kept without a change here.
   */
  async append(pixel: NewPixel): Promise<PixelRecord> {
    return toPixelRecord(await this.pixels.insert(pixel));
  }

  /**
   * Deletes the click; the audit log keeps it as it was, in the same transaction. Access is asked of
   * studies first, so no transaction waits on that call; the row is then read again, locked, so the
   * entry holds what was deleted.
   */
  async deleteFor(user: AuthUser, pixelId: string): Promise<void> {
    const sessionId = await this.pixels.sessionOf(pixelId);
    if (sessionId === null) throw notFound('No such pixel.');
    await this.access.requireOwner(user, sessionId);
    await this.db.transaction(async (tx) => {
      const before = await this.pixels.lockedInTx(tx, pixelId);
      if (!before) throw notFound('No such pixel.');
      await this.pixels.delete(tx, before.id);
      await this.audit.insert(tx, user, {
        kind: 'deletePixel',
        sessionId: before.sessionId,
        recordId: before.id,
        recordAuthorUserId: before.authorUserId,
        before: pixelSnapshot(before),
        after: null,
      });
    });
  }

  /** pixels.csv's rows of a session, in order, a page at a time. */
  async *exportRows(sessionId: string, people: ParticipantIds): AsyncGenerator<ExportTableRow<'pixels'>> {
    for await (const row of this.pixels.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toPixelExportRow(row, people);
    }
  }
}
