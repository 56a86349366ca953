import { Injectable } from '@nestjs/common';
import type { ExportTableRow, PlaybackEvent, PlaybackRecord } from '@uis/proto';
import type { RecordAuthor } from '../author';
import { RecordsDb } from '../db/records-db';
import { secondsToMs } from '../export/export-cells';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/** A row of playback as the repository reads it (bounds and indexes are in the migration). */
export interface PlaybackRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  event: PlaybackEvent;
  /** Seconds into the video. */
  videoTime: number;
  playbackRate: number;
  /** The prompt that fired (event 'prompt'). */
  promptId: string | null;
  createdAt: Date;
}

/** An entry as realtime reports it, for the researcher it checked. */
export type NewPlayback = RecordAuthor & {
  sessionId: string;
  event: PlaybackEvent;
  videoTime: number;
  playbackRate: number;
  promptId: string | null;
};

/** The columns of playback, as PlaybackRow reads them. */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, event, video_time AS "videoTime", playback_rate AS "playbackRate", prompt_id AS "promptId",
  created_at AS "createdAt"`;

/** What the owner sees of an entry: no author e-mail or id. */
export const toPlaybackRecord = (
  row: Pick<
    PlaybackRow,
    'id' | 'seq' | 'createdAt' | 'name' | 'event' | 'videoTime' | 'playbackRate' | 'promptId'
  >,
): PlaybackRecord => ({
  playback_id: row.id,
  seq: row.seq,
  time: row.createdAt.toISOString(),
  name: row.name,
  event: row.event,
  videoTime: row.videoTime,
  playbackRate: row.playbackRate,
  promptId: row.promptId,
});

/** A row of playback.csv (EXPORT_TABLES.playback). */
export const toPlaybackExportRow = (
  row: PlaybackRow,
  people: ParticipantIds,
): ExportTableRow<'playback'> => ({
  session_id: row.sessionId,
  playback_id: row.id,
  seq: Number(row.seq),
  participant_id: people.of(row.authorEmail),
  logged_at: row.createdAt.toISOString(),
  event: row.event,
  video_time_ms: secondsToMs(row.videoTime),
  playback_rate: row.playbackRate,
  prompt_id: row.promptId,
});

/** The playback table: every statement on it and its row mappers. */
@Injectable()
export class PlaybackRepository extends SessionRecordTable<PlaybackRow> {
  constructor(db: RecordsDb) {
    super(db, 'playback', COLUMNS);
  }

  /**
   * One INSERT. The order key (the session's next, drawn by the table's trigger: migration
   * 1795700000000) and the server's time come back from Postgres.
   */
  async insert(entry: NewPlayback): Promise<PlaybackRecord> {
    const [row] = await this.db.query<{ id: string; seq: string; created_at: Date }>(
      `INSERT INTO playback (session_id, author_user_id, author_email, name, event, video_time, playback_rate, prompt_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING id, seq, created_at`,
      [
        entry.sessionId,
        entry.userId,
        entry.email,
        entry.name,
        entry.event,
        entry.videoTime,
        entry.playbackRate,
        entry.promptId,
      ],
    );
    return toPlaybackRecord({ ...entry, id: row!.id, seq: row!.seq, createdAt: row!.created_at });
  }
}
