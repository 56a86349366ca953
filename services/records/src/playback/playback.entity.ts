import type { PlaybackEvent, PlaybackRecord } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/** An entry of a session's playback log (indexes, bounds and the order key are in the migration). */
@Entity({ name: 'playback' })
export class PlaybackEntity extends SessionRecordEntity {
  @Column({ type: 'text' })
  event!: PlaybackEvent;

  /** Seconds into the video. */
  @Column({ name: 'video_time', type: 'double precision' })
  videoTime!: number;

  @Column({ name: 'playback_rate', type: 'double precision' })
  playbackRate!: number;

  /** The prompt that fired (event 'prompt'). */
  @Column({ name: 'prompt_id', type: 'uuid', nullable: true })
  promptId!: string | null;
}

/** The columns an entry's record is made of. */
export type ListedPlayback = Pick<
  PlaybackEntity,
  'id' | 'seq' | 'createdAt' | 'name' | 'event' | 'videoTime' | 'playbackRate' | 'promptId'
>;

/** What the owner sees of an entry: no author e-mail or id. */
export const toPlaybackRecord = (row: ListedPlayback): PlaybackRecord => ({
  playback_id: row.id,
  seq: row.seq,
  time: row.createdAt.toISOString(),
  name: row.name,
  event: row.event,
  videoTime: row.videoTime,
  playbackRate: row.playbackRate,
  promptId: row.promptId,
});
