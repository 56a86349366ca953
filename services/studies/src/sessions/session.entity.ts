import type { SessionType } from '@uis/proto';
import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { GroupEntity } from '../groups/group.entity';

/** A session belongs to one group, and through it to the group's owner. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'group_id', type: 'uuid' })
  groupId!: string;

  /** Loaded when the owner matters (access checks); the owner lives on the group only. */
  @ManyToOne(() => GroupEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'group_id' })
  group?: GroupEntity;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  type!: SessionType;

  /** Lower-cased e-mails of the participants, or null for Everyone. */
  @Column({ type: 'jsonb', nullable: true })
  scope!: string[] | null;

  @Column({ type: 'text', default: '' })
  track!: string;

  @Column({ type: 'text', default: '' })
  source!: string;

  /** Where participants go when the researcher ends the live session; null: nowhere. */
  @Column({ name: 'completion_url', type: 'text', nullable: true })
  completionUrl!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
