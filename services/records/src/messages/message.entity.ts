import type { MessageRecord } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/** A chat message of a session (indexes and the order key are in the migration). */
@Entity({ name: 'messages' })
export class MessageEntity extends SessionRecordEntity {
  @Column({ type: 'text' })
  message!: string;

  /** The session's video time when it was stored (seconds); null before anything was played. */
  @Column({ name: 'video_time', type: 'double precision', nullable: true })
  videoTime!: number | null;

  /** A reaction's action id; null for a typed message. */
  @Column({ name: 'action_id', type: 'uuid', nullable: true })
  actionId!: string | null;
}

/** The columns a message's record is made of. */
export type ListedMessage = Pick<
  MessageEntity,
  'id' | 'seq' | 'message' | 'createdAt' | 'name' | 'videoTime' | 'actionId'
>;

/** What participants and the owner see of a message: no author e-mail or id. */
export const toMessageRecord = (row: ListedMessage): MessageRecord => ({
  message_id: row.id,
  seq: row.seq,
  message: row.message,
  time: row.createdAt.toISOString(),
  name: row.name,
  videoTime: row.videoTime,
  actionId: row.actionId,
});
