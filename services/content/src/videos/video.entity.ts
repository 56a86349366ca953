import { Column, Entity, PrimaryColumn } from 'typeorm';

/** bigint arrives from pg as text; sizes stay far below 2^53, so a number is exact. */
const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** A session's one uploaded video: the row says which object in the bucket is current. */
@Entity({ name: 'videos' })
export class VideoEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'object_key', type: 'text' })
  objectKey!: string;

  /** The sanitised original file name: the asset path's last segment and what /getVideoInfo answers. */
  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'size_bytes', type: 'bigint', transformer: bigintAsNumber })
  size!: number;

  /** The object store's etag of the object (without quotes). */
  @Column({ type: 'text' })
  etag!: string;

  @Column({ name: 'uploaded_at', type: 'timestamptz' })
  uploadedAt!: Date;

  /** The researcher who uploaded it, charged for its size; null for videos uploaded before it was kept. */
  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId!: string | null;
}
