import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { ExportRow, PlaybackEvent, PlaybackRecord } from '@uis/proto';
import type { Repository } from 'typeorm';
import type { RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { recordsInOrder } from '../session-record';
import { PlaybackEntity, toPlaybackRecord, type ListedPlayback } from './playback.entity';

/** An entry as realtime reports it, for the researcher it checked. */
export type NewPlayback = RecordAuthor & {
  sessionId: string;
  event: PlaybackEvent;
  videoTime: number;
  playbackRate: number;
  promptId: string | null;
};

/** Every entry of session `$1` in the order stored, as toPlaybackRecord reads them. */
const LIST_SQL = `
  SELECT id, seq, name, event, video_time AS "videoTime", playback_rate AS "playbackRate",
    prompt_id AS "promptId", created_at AS "createdAt"
  FROM playback
  WHERE session_id = $1
  ORDER BY seq`;

/** The order key and the server's time come back from Postgres (an entity insert leaves out `seq`). */
const APPEND_SQL = `
  INSERT INTO playback (session_id, author_user_id, author_email, name, event, video_time, playback_rate, prompt_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  RETURNING id, seq, created_at`;

/** The playback table: realtime appends to it; the session's owner reads and exports it. */
@Injectable()
export class PlaybackService {
  constructor(
    @InjectRepository(PlaybackEntity) private readonly playback: Repository<PlaybackEntity>,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The record panel and the replay: the session's owner only. */
  async listFor(user: AuthUser, sessionId: string): Promise<PlaybackRecord[]> {
    await this.access.requireOwner(user, sessionId);
    const rows = await this.playback.query<ListedPlayback[]>(LIST_SQL, [sessionId]);
    return rows.map(toPlaybackRecord);
  }

  /** One INSERT: realtime has checked that the author owns the session. */
  async append(entry: NewPlayback): Promise<PlaybackRecord> {
    const [row] = await this.playback.query<{ id: string; seq: string; created_at: Date }[]>(APPEND_SQL, [
      entry.sessionId,
      entry.userId,
      entry.email,
      entry.name,
      entry.event,
      entry.videoTime,
      entry.playbackRate,
      entry.promptId,
    ]);
    return toPlaybackRecord({ ...entry, id: row!.id, seq: row!.seq, createdAt: row!.created_at });
  }

  /** The export's rows, in order, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<ExportRow<'playback'>> {
    for await (const row of recordsInOrder(this.playback, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield {
        playback_id: row.id,
        time: row.createdAt.toISOString(),
        videoTime: row.videoTime,
        event: row.event,
        playbackRate: row.playbackRate,
        promptId: row.promptId,
        name: row.name,
        email: row.authorEmail,
      };
    }
  }
}
