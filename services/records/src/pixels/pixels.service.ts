import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { ExportRow, PixelRecord } from '@uis/proto';
import type { Repository } from 'typeorm';
import { pixelSnapshot, writeAudit } from '../audit/audit-log.service';
import { authorOf, type RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, recordsInOrder, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import { PixelEntity, toPixelRecord, type ListedPixel } from './pixel.entity';

/** A click as a client reports it. */
export interface Click {
  sessionId: string;
  color: string;
  x: number;
  y: number;
  videoTime?: number | null;
}
/** A click as it is recorded, whoever reports it. */
export type NewPixel = RecordAuthor & Click;

/**
 * The clicks of session `$1` after the order key `$2` in the order stored, `$3` at most, as
 * toPixelRecord reads them: rows as pg gives them (double precision arrives as numbers), no entity
 * per row, as for messages' list.
 */
const LIST_SQL = `
  SELECT id, session_id AS "sessionId", name, color, x, y, video_time AS "videoTime", created_at AS "createdAt"
  FROM pixels
  WHERE session_id = $1 AND seq > $2
  ORDER BY seq
  LIMIT $3`;

/** The pixels table: the one place records reads and writes clicks. */
@Injectable()
export class PixelsService {
  constructor(
    @InjectRepository(PixelEntity) private readonly pixels: Repository<PixelEntity>,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel, a page at a time: the session's owner only (participants do not see each other's clicks). */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<PixelRecord>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.pixels, sessionId, after, (afterSeq, limit) =>
      this.pixels.query<ListedPixel[]>(LIST_SQL, [sessionId, afterSeq, limit]),
    );
    return { rows: rows.map(toPixelRecord), next };
  }

  /** A click the owner records over REST, under their own name; counted with messages, as live clicks are. */
  async addFor(user: AuthUser, click: Click): Promise<PixelRecord> {
    await this.access.requireOwner(user, click.sessionId);
    await this.limits.messagesAndClicks.consume(user.id, click.sessionId);
    return this.append({ ...click, ...authorOf(user) });
  }

  /**
   * One INSERT: the caller (REST above, or realtime with the author it checked) has decided who may
   * write. Takes realtime's payload as it is, so an e-mail it starts sending is kept without a change here.
   */
  async append(pixel: NewPixel): Promise<PixelRecord> {
    const row = this.pixels.create({
      sessionId: pixel.sessionId,
      authorUserId: pixel.userId,
      authorEmail: pixel.email,
      name: pixel.name,
      color: pixel.color,
      x: pixel.x,
      y: pixel.y,
      videoTime: pixel.videoTime ?? null,
    });
    // insert() fills the generated id and created_at into `row` from RETURNING.
    await this.pixels.insert(row);
    return toPixelRecord(row);
  }

  /**
   * Deletes the click; the audit log keeps it as it was, in the same transaction. Access is asked of
   * studies first, so no transaction waits on that call; the row is then read again, locked, so the
   * entry holds what was deleted.
   */
  async deleteFor(user: AuthUser, pixelId: string): Promise<void> {
    const row = await this.pixels.findOne({ select: { id: true, sessionId: true }, where: { id: pixelId } });
    if (!row) throw notFound('No such pixel.');
    await this.access.requireOwner(user, row.sessionId);
    await this.pixels.manager.transaction(async (tx) => {
      const before = await tx.findOne(PixelEntity, {
        where: { id: row.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!before) throw notFound('No such pixel.');
      await tx.delete(PixelEntity, { id: row.id });
      await writeAudit(tx, user, {
        kind: 'deletePixel',
        sessionId: before.sessionId,
        recordId: before.id,
        recordAuthorUserId: before.authorUserId,
        before: pixelSnapshot(before),
        after: null,
      });
    });
  }

  /** The export's rows, in order, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<ExportRow<'pixels'>> {
    for await (const row of recordsInOrder(this.pixels, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield pixelSnapshot(row);
    }
  }
}
