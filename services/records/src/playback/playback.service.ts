import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { ExportRow, PlaybackEvent, PlaybackRecord } from '@uis/proto';
import type { Repository } from 'typeorm';
import type { RecordAuthor } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, recordsInOrder, type ListPage } from '../session-record';
import { PlaybackEntity, toPlaybackRecord, type ListedPlayback } from './playback.entity';

/** An entry as realtime reports it, for the researcher it checked. */
export type NewPlayback = RecordAuthor & {
  sessionId: string;
  event: PlaybackEvent;
  videoTime: number;
  playbackRate: number;
  promptId: string | null;
};

/** The entries of session `$1` after the order key `$2` in the order stored, `$3` at most, as toPlaybackRecord reads them. */
const LIST_SQL = `
  SELECT id, seq, name, event, video_time AS "videoTime", playback_rate AS "playbackRate",
    prompt_id AS "promptId", created_at AS "createdAt"
  FROM playback
  WHERE session_id = $1 AND seq > $2
  ORDER BY seq
  LIMIT $3`;

/**
 * The order key (the session's next, drawn by the table's trigger: migration 1795700000000) and the
 * server's time come back from Postgres.
 */
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

  /** The record panel and the replay, a page at a time: the session's owner only. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<PlaybackRecord>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.playback, sessionId, after, (afterSeq, limit) =>
      this.playback.query<ListedPlayback[]>(LIST_SQL, [sessionId, afterSeq, limit]),
    );
    return { rows: rows.map(toPlaybackRecord), next };
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
