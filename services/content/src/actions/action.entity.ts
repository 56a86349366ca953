import type { IconStyle } from '@uis/proto';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'actions' })
export class ActionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ type: 'text' })
  name!: string;

  /** #rgb, #rrggbb, #rrggbbaa (lower-case) or 'transparent'. */
  @Column({ type: 'text' })
  color!: string;

  /** A Material icon name. */
  @Column({ type: 'text' })
  icon!: string;

  /** The icon style; `type` on the wire (spec's name), `style` here because that is what it is. */
  @Column({ type: 'text' })
  style!: IconStyle;

  /** Set by the database (clock_timestamp), so actions list in the order they were added. */
  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;
}
