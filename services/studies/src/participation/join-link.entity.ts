import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A session's join link. The token is kept as it is, not hashed: it is a capability meant to be
 * shared (posted on a recruitment panel), and its researcher copies it again from the editor; it
 * only ever adds the bearer to this session's scope, never signs anyone in.
 */
@Entity({ name: 'join_links' })
export class JoinLinkEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ type: 'text', unique: true })
  token!: string;

  @Column({ name: 'max_participants', type: 'integer', nullable: true })
  maxParticipants!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
