import type { DeviceCheck, DeviceCheckOutcome, StudyExportRow } from '@uis/proto';
import { Column, Entity } from 'typeorm';
import { SessionRecordEntity } from '../session-record';

/**
 * A pre-session check, shaped as every record of a session: the author is the person who ran it,
 * `createdAt` when it was stored. Indexes and the outcomes' bounds are in the migration.
 */
@Entity({ name: 'device_checks' })
export class DeviceCheckEntity extends SessionRecordEntity {
  @Column({ name: 'browser_name', type: 'text' })
  browserName!: string;

  @Column({ name: 'browser_version', type: 'text' })
  browserVersion!: string;

  @Column({ type: 'text' })
  camera!: DeviceCheckOutcome;

  @Column({ type: 'text' })
  microphone!: DeviceCheckOutcome;

  @Column({ type: 'text' })
  speakers!: DeviceCheckOutcome;

  @Column({ type: 'text' })
  stun!: DeviceCheckOutcome;

  @Column({ type: 'text' })
  turn!: DeviceCheckOutcome;

  @Column({ type: 'text' })
  rtt!: DeviceCheckOutcome;

  @Column({ name: 'rtt_ms', type: 'integer', nullable: true })
  rttMs!: number | null;
}

/** What the owner sees, and what the person who ran the check is answered. */
export const toDeviceCheck = (row: DeviceCheckEntity): DeviceCheck => ({
  device_check_id: row.id,
  time: row.createdAt.toISOString(),
  userId: row.authorUserId,
  name: row.name,
  email: row.authorEmail,
  browserName: row.browserName,
  browserVersion: row.browserVersion,
  camera: row.camera,
  microphone: row.microphone,
  speakers: row.speakers,
  stun: row.stun,
  turn: row.turn,
  rtt: row.rtt,
  rttMs: row.rttMs,
});

/** A row of the study export's device-checks.csv. */
export const toDeviceCheckRow = (row: DeviceCheckEntity): StudyExportRow<'device-checks'> => ({
  ...toDeviceCheck(row),
  sessionId: row.sessionId,
});
