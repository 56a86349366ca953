import { Injectable } from '@nestjs/common';
import type { DeviceCheck, DeviceCheckOutcome, StudyExportRow } from '@uis/proto';
import type { RecordAuthor } from '../author';
import { RecordsDb } from '../db/records-db';
import type { ParticipantIds } from '../export/participant-ids';
import { SessionRecordTable } from '../session-record';

/**
 * A row of device_checks: a pre-session check, shaped as every record of a session (the author is
 * the person who ran it, `createdAt` when it was stored). Indexes and the outcomes' bounds are in
 * the migration.
 */
export interface DeviceCheckRow {
  id: string;
  seq: string;
  sessionId: string;
  authorUserId: string;
  authorEmail: string;
  name: string;
  browserName: string;
  browserVersion: string;
  camera: DeviceCheckOutcome;
  microphone: DeviceCheckOutcome;
  speakers: DeviceCheckOutcome;
  stun: DeviceCheckOutcome;
  turn: DeviceCheckOutcome;
  rtt: DeviceCheckOutcome;
  rttMs: number | null;
  createdAt: Date;
}

/** A check as it is stored: what the person reports, under their own name. */
export type NewDeviceCheck = Omit<
  DeviceCheckRow,
  'id' | 'seq' | 'authorUserId' | 'authorEmail' | 'name' | 'createdAt'
>;

/** The columns of device_checks, as DeviceCheckRow reads them. */
const COLUMNS = `id, seq, session_id AS "sessionId", author_user_id AS "authorUserId", author_email AS "authorEmail",
  name, browser_name AS "browserName", browser_version AS "browserVersion", camera, microphone, speakers, stun,
  turn, rtt, rtt_ms AS "rttMs", created_at AS "createdAt"`;

/** What the owner sees, and what the person who ran the check is answered. */
export const toDeviceCheck = (row: DeviceCheckRow): DeviceCheck => ({
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
export const toDeviceCheckRow = (
  row: DeviceCheckRow,
  people: ParticipantIds,
): StudyExportRow<'device-checks'> => ({
  session_id: row.sessionId,
  device_check_id: row.id,
  participant_id: people.of(row.authorEmail),
  checked_at: row.createdAt.toISOString(),
  browser_name: row.browserName,
  browser_version: row.browserVersion,
  camera: row.camera,
  microphone: row.microphone,
  speakers: row.speakers,
  stun: row.stun,
  turn: row.turn,
  rtt: row.rtt,
  rtt_ms: row.rttMs,
});

/** The device_checks table: every statement on it and its row mappers. */
@Injectable()
export class DeviceChecksRepository extends SessionRecordTable<DeviceCheckRow> {
  constructor(db: RecordsDb) {
    super(db, 'device_checks', COLUMNS);
  }

  async insert(author: RecordAuthor, check: NewDeviceCheck): Promise<DeviceCheckRow> {
    const [row] = await this.db.query<DeviceCheckRow>(
      `INSERT INTO device_checks (session_id, author_user_id, author_email, name, browser_name, browser_version,
         camera, microphone, speakers, stun, turn, rtt, rtt_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${COLUMNS}`,
      [
        check.sessionId,
        author.userId,
        author.email,
        author.name,
        check.browserName,
        check.browserVersion,
        check.camera,
        check.microphone,
        check.speakers,
        check.stun,
        check.turn,
        check.rtt,
        check.rttMs,
      ],
    );
    return row!;
  }
}
