import type { PixelRecord } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/** A click on a session's video area (indexes, bounds and the order key are in the migration). */
@Entity({ name: 'pixels' })
export class PixelEntity extends SessionRecordEntity {
  @Column({ type: 'text' })
  color!: string;

  /** Fractions 0 to 1 of the video area, from the left and from the top. */
  @Column({ type: 'double precision' })
  x!: number;

  @Column({ type: 'double precision' })
  y!: number;

  /** Seconds into the video at the click; null when the client did not say (a chat session). */
  @Column({ name: 'video_time', type: 'double precision', nullable: true })
  videoTime!: number | null;
}

/** The columns a click's record is made of. */
export type ListedPixel = Pick<
  PixelEntity,
  'id' | 'createdAt' | 'name' | 'color' | 'x' | 'y' | 'sessionId' | 'videoTime'
>;

/** What the owner sees of a click: no author e-mail or id. */
export const toPixelRecord = (row: ListedPixel): PixelRecord => ({
  pixel_id: row.id,
  time: row.createdAt.toISOString(),
  name: row.name,
  color: row.color,
  x: row.x,
  y: row.y,
  sessionId: row.sessionId,
  videoTime: row.videoTime,
});
