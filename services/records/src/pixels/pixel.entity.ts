import type { PixelRecord } from '@uis/proto';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A click on a session's video area (indexes, bounds and the order key are in the migration). */
@Entity({ name: 'pixels' })
export class PixelEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The order key; Postgres assigns it. A bigint, so TypeORM reads it as text. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'author_user_id', type: 'uuid' })
  authorUserId!: string;

  @Column({ name: 'author_email', type: 'text' })
  authorEmail!: string;

  @Column({ type: 'text' })
  name!: string;

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

  /** The server's clock when the click was stored: the record's `time`. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** What the owner sees of a click: no author e-mail or id. */
export const toPixelRecord = (row: PixelEntity): PixelRecord => ({
  pixel_id: row.id,
  time: row.createdAt.toISOString(),
  name: row.name,
  color: row.color,
  x: row.x,
  y: row.y,
  sessionId: row.sessionId,
  videoTime: row.videoTime,
});
