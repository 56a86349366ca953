import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'prompts' })
export class PromptEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  /** Whole seconds from the start of the session; unique within a session. */
  @Column({ name: 'time_seconds', type: 'integer' })
  timeSeconds!: number;

  /** Seconds the video stays paused; 0 keeps it paused. */
  @Column({ name: 'duration_seconds', type: 'double precision' })
  durationSeconds!: number;

  @Column({ type: 'text' })
  prompt!: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;
}
