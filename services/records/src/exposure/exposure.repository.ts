import { Injectable } from '@nestjs/common';
import type { ExposureKind, ExposureRecord, InternalRequestOf } from '@uis/proto';
import { RecordsDb } from '../db/records-db';
import { SessionRecordTable } from '../session-record';

/** A row of exposure_events as the repository reads it (bounds and indexes are in the migration). */
export interface ExposureEventRow {
  /** The client's event id (realtime's for joins and leaves). */
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  kind: ExposureKind;
  /** Seconds into the video, or null. */
  videoTime: number | null;
  /** The participant's clock; null for realtime's own events. */
  clientTime: Date | null;
  createdAt: Date;
}

/** An event as realtime appends it, for the participant it checked. */
export type NewExposureEvent = InternalRequestOf<'recordsAppendExposure'>['items'][number];

/** The columns of exposure_events, as ExposureEventRow reads them. */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, kind, video_time AS "videoTime", client_time AS "clientTime", created_at AS "createdAt"`;

/** What the owner sees of an event: no author e-mail. */
export const toExposureRecord = (row: ExposureEventRow): ExposureRecord => ({
  exposure_id: row.id,
  time: row.createdAt.toISOString(),
  clientTime: row.clientTime?.toISOString() ?? null,
  userId: row.authorUserId,
  name: row.name,
  kind: row.kind,
  videoTime: row.videoTime,
});

/** The exposure_events table: every statement on it and its row mapper. */
@Injectable()
export class ExposureRepository extends SessionRecordTable<ExposureEventRow> {
  constructor(db: RecordsDb) {
    super(db, 'exposure_events', COLUMNS);
  }

  /**
   * One INSERT for the whole group, in the order of the items. An event whose id is stored already
   * (its batch was sent again) is skipped: answers the ids stored now.
   */
  async insertMany(events: readonly NewExposureEvent[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `INSERT INTO exposure_events (id, session_id, author_user_id, author_email, name, kind, video_time, client_time)
       SELECT e.id, e.session_id, e.author_user_id, e.author_email, e.name, e.kind, e.video_time,
              to_timestamp(e.client_ms / 1000.0)
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[])
         WITH ORDINALITY AS e(id, session_id, author_user_id, author_email, name, kind, video_time, client_ms, n)
       ORDER BY e.n
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        events.map((e) => e.eventId),
        events.map((e) => e.sessionId),
        events.map((e) => e.userId),
        events.map((e) => e.email),
        events.map((e) => e.name),
        events.map((e) => e.kind),
        events.map((e) => e.videoTime ?? null),
        events.map((e) => e.clientTime ?? null),
      ],
    );
    return rows.map((row) => row.id);
  }
}
