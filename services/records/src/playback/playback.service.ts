import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { ExportTableRow, PlaybackRecord } from '@uis/proto';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import {
  PlaybackRepository,
  toPlaybackExportRow,
  toPlaybackRecord,
  type NewPlayback,
} from './playback.repository';

export type { NewPlayback } from './playback.repository';

/** The playback log: realtime appends to it; the session's owner reads and exports it. */
@Injectable()
export class PlaybackService {
  constructor(
    private readonly playback: PlaybackRepository,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel and the replay, a page at a time: the session's owner only. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<PlaybackRecord>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.playback, sessionId, after);
    return { rows: rows.map(toPlaybackRecord), next };
  }

  /** One INSERT: realtime has checked that the author owns the session. */
  append(entry: NewPlayback): Promise<PlaybackRecord> {
    return this.playback.insert(entry);
  }

  /** playback.csv's rows of a session, in order, a page at a time. */
  async *exportRows(sessionId: string, people: ParticipantIds): AsyncGenerator<ExportTableRow<'playback'>> {
    for await (const row of this.playback.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toPlaybackExportRow(row, people);
    }
  }
}
