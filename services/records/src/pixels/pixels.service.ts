import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, notFound, type AuthUser } from '@uis/kit';
import type { ExportRow, PixelRecord } from '@uis/proto';
import { MoreThan, type Repository } from 'typeorm';
import { authorOf, type RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { PixelEntity, toPixelRecord } from './pixel.entity';

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

/** The pixels table: the one place records reads and writes clicks. */
@Injectable()
export class PixelsService {
  constructor(
    @InjectRepository(PixelEntity) private readonly pixels: Repository<PixelEntity>,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel: the session's owner only (participants do not see each other's clicks). */
  async listFor(user: AuthUser, sessionId: string): Promise<PixelRecord[]> {
    await this.access.requireOwner(user, sessionId);
    const rows = await this.pixels.find({ where: { sessionId }, order: { seq: 'ASC' } });
    return rows.map(toPixelRecord);
  }

  /** A click the owner records over REST, under their own name. */
  async addFor(user: AuthUser, click: Click): Promise<PixelRecord> {
    await this.access.requireOwner(user, click.sessionId);
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

  async deleteFor(user: AuthUser, pixelId: string): Promise<void> {
    const row = await this.pixels.findOne({ select: { id: true, sessionId: true }, where: { id: pixelId } });
    if (!row) throw notFound('No such pixel.');
    await this.access.requireOwner(user, row.sessionId);
    await this.pixels.delete({ id: row.id });
  }

  /** The export's rows, read a page at a time along the order key so a long session never sits in memory. */
  async *exportRows(sessionId: string): AsyncGenerator<ExportRow<'pixels'>> {
    const take = this.config.EXPORT_PAGE_ROWS;
    let after = '0';
    for (;;) {
      const page = await this.pixels.find({
        where: { sessionId, seq: MoreThan(after) },
        order: { seq: 'ASC' },
        take,
      });
      for (const row of page) {
        yield {
          pixel_id: row.id,
          time: row.createdAt.toISOString(),
          name: row.name,
          email: row.authorEmail,
          color: row.color,
          x: row.x,
          y: row.y,
          videoTime: row.videoTime,
          sessionId: row.sessionId,
        };
      }
      const last = page.at(-1);
      if (!last || page.length < take) return;
      after = last.seq;
    }
  }
}
