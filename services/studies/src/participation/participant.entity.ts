import type { PanelIdConflicts, PanelIds, ParticipantSource } from '@uis/proto';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Someone a session's scope names, or who joined it by its link: invited, joined, with panel ids. */
@Entity({ name: 'session_participants' })
export class ParticipantEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  /** Lower-cased, as in the scope. */
  @PrimaryColumn({ type: 'text' })
  email!: string;

  /** Known once they opened the session signed in. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ type: 'text' })
  source!: ParticipantSource;

  /** Invitation mails sent, and when the last one went. */
  @Column({ type: 'integer', default: 0 })
  invitations!: number;

  @Column({ name: 'invited_at', type: 'timestamptz', nullable: true })
  invitedAt!: Date | null;

  /** When they first opened the session. */
  @Column({ name: 'joined_at', type: 'timestamptz', nullable: true })
  joinedAt!: Date | null;

  /** The panel ids of their first join that carried any. */
  @Column({ name: 'panel_ids', type: 'jsonb', default: {} })
  panelIds!: PanelIds;

  /** Other panel ids later joins carried (PANEL_ID_CONFLICTS_MAX at most). */
  @Column({ name: 'panel_id_conflicts', type: 'jsonb', default: [] })
  panelIdConflicts!: PanelIdConflicts;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
