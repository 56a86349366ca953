import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { ExportTableRow, ExposureRecord } from '@uis/proto';
import { secondsToMs } from '../export/export-cells';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import {
  ExposureRepository,
  toExposureRecord,
  type ExposureEventRow,
  type NewExposureEvent,
} from './exposure.repository';

export type { ExposureEventRow, NewExposureEvent } from './exposure.repository';

/** The exposure log: realtime appends to it; the session's owner reads it (and exports it). */
@Injectable()
export class ExposureService {
  constructor(
    private readonly exposure: ExposureRepository,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The records tab, a page at a time: the session's owner only. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<ExposureRecord>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.exposure, sessionId, after);
    return { rows: rows.map(toExposureRecord), next };
  }

  /** One INSERT, idempotent by event id: realtime has checked each author. Answers the ids stored now. */
  append(events: readonly NewExposureEvent[]): Promise<string[]> {
    return this.exposure.insertMany(events);
  }

  /**
   * Every event of a session in order, a page at a time (the author's e-mail included: the owner's
   * study data), for an export: it never holds the whole session.
   */
  rowsInOrder(sessionId: string): AsyncGenerator<ExposureEventRow> {
    return this.exposure.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS);
  }

  /** The session's exposure.csv rows, under the exporting researcher's participant ids. */
  async *exportRows(sessionId: string, people: ParticipantIds): AsyncGenerator<ExportTableRow<'exposure'>> {
    for await (const row of this.rowsInOrder(sessionId)) {
      yield {
        session_id: row.sessionId,
        event_id: row.id,
        seq: Number(row.seq),
        participant_id: people.of(row.authorEmail),
        kind: row.kind,
        video_time_ms: secondsToMs(row.videoTime),
        client_at: row.clientTime?.toISOString() ?? null,
        stored_at: row.createdAt.toISOString(),
      };
    }
  }
}
