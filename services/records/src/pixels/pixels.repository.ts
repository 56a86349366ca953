import { Injectable } from '@nestjs/common';
import type { AuditSnapshot, ExportTableRow, PixelRecord } from '@uis/proto';
import type { RecordAuthor } from '../author';
import { RecordsDb, type Queryable } from '../db/records-db';
import { secondsToMs } from '../export/export-cells';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/** A row of pixels as the repository reads it (bounds and indexes are in the migration). */
export interface PixelRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  color: string;
  /** Fractions 0 to 1 of the video area, from the left and from the top. */
  x: number;
  y: number;
  /** Seconds into the video at the click; null when the client did not say (a chat session). */
  videoTime: number | null;
  createdAt: Date;
}

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

/** The columns of pixels, as PixelRow reads them (double precision arrives as numbers). */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, color, x, y, video_time AS "videoTime", created_at AS "createdAt"`;

/** What the owner sees of a click: no author e-mail or id. */
export const toPixelRecord = (row: PixelRow): PixelRecord => ({
  pixel_id: row.id,
  time: row.createdAt.toISOString(),
  name: row.name,
  color: row.color,
  x: row.x,
  y: row.y,
  sessionId: row.sessionId,
  videoTime: row.videoTime,
});

/** A row of pixels.csv (EXPORT_TABLES.pixels). */
export const toPixelExportRow = (row: PixelRow, people: ParticipantIds): ExportTableRow<'pixels'> => ({
  session_id: row.sessionId,
  pixel_id: row.id,
  participant_id: people.of(row.authorEmail),
  clicked_at: row.createdAt.toISOString(),
  video_time_ms: secondsToMs(row.videoTime),
  x: row.x,
  y: row.y,
  color: row.color,
});

/** What the audit log keeps of a click it deletes (author e-mail included). */
export const pixelSnapshot = (row: PixelRow): AuditSnapshot<'pixels'> => ({
  pixel_id: row.id,
  time: row.createdAt.toISOString(),
  name: row.name,
  email: row.authorEmail,
  color: row.color,
  x: row.x,
  y: row.y,
  videoTime: row.videoTime,
  sessionId: row.sessionId,
});

/** The pixels table: every statement on it and its row mappers. */
@Injectable()
export class PixelsRepository extends SessionRecordTable<PixelRow> {
  constructor(db: RecordsDb) {
    super(db, 'pixels', COLUMNS);
  }

  /** One INSERT; the id, order key and time come back from Postgres. */
  async insert(pixel: NewPixel): Promise<PixelRow> {
    const [row] = await this.db.query<PixelRow>(
      `INSERT INTO pixels (session_id, author_user_id, author_email, name, color, x, y, video_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${COLUMNS}`,
      [
        pixel.sessionId,
        pixel.userId,
        pixel.email,
        pixel.name,
        pixel.color,
        pixel.x,
        pixel.y,
        pixel.videoTime ?? null,
      ],
    );
    return row!;
  }

  async delete(tx: Queryable, id: string): Promise<void> {
    await this.countDeleted(tx, `id = $1`, [id]);
  }
}
