import type { StudyExportRow, Withdrawal } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/**
 * A participant's withdrawal from a session, shaped as every record of it: the author is the
 * participant who withdrew, `createdAt` when. Indexes are in the migration.
 */
@Entity({ name: 'withdrawals' })
export class WithdrawalEntity extends SessionRecordEntity {
  /** Their chat messages (reactions included) it deleted. */
  @Column({ type: 'integer' })
  messages!: number;

  /** Their clicks it deleted. */
  @Column({ type: 'integer' })
  clicks!: number;
}

/** What the owner sees, and what the participant who withdrew is answered. */
export const toWithdrawal = (row: WithdrawalEntity): Withdrawal => ({
  withdrawal_id: row.id,
  time: row.createdAt.toISOString(),
  userId: row.authorUserId,
  name: row.name,
  email: row.authorEmail,
  messages: row.messages,
  clicks: row.clicks,
});

/** A row of the study export's withdrawals.csv. */
export const toWithdrawalRow = (row: WithdrawalEntity): StudyExportRow<'withdrawals'> => ({
  ...toWithdrawal(row),
  sessionId: row.sessionId,
});
