import type { MessageRecord } from '@uis/proto';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A chat message of a session (indexes and the order key are in the migration). */
@Entity({ name: 'messages' })
export class MessageEntity {
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
  message!: string;

  /** The server's clock when the message was stored: the record's `time`. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** What participants and the owner see of a message: no author e-mail or id. */
export const toMessageRecord = (
  row: Pick<MessageEntity, 'id' | 'message' | 'createdAt' | 'name'>,
): MessageRecord => ({
  message_id: row.id,
  message: row.message,
  time: row.createdAt.toISOString(),
  name: row.name,
});
