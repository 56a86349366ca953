import { Inject, Injectable } from '@nestjs/common';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { DeviceCheck, ParsedRequestOf, StudyExportRow } from '@uis/proto';
import { authorOf } from '../author';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import { DeviceChecksRepository, toDeviceCheck, toDeviceCheckRow } from './device-checks.repository';

/** Pre-session checks: who may store and read them. */
@Injectable()
export class DeviceChecksService {
  constructor(
    private readonly checks: DeviceChecksRepository,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The owner or a participant in scope stores their check, under their own name, a few per window. */
  async save(user: AuthUser, { rttMs, ...check }: ParsedRequestOf<'saveDeviceCheck'>): Promise<DeviceCheck> {
    await this.access.requireMember(user, check.sessionId);
    await this.limits.deviceChecks.consume(user.id, check.sessionId);
    return toDeviceCheck(await this.checks.insert(authorOf(user), { ...check, rttMs: rttMs ?? null }));
  }

  /** The owner's list, oldest first, a page at a time. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<DeviceCheck>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.checks, sessionId, after);
    return { rows: rows.map(toDeviceCheck), next };
  }

  /** device-checks.csv's rows of a session, a page at a time. */
  async *exportRows(
    sessionId: string,
    people: ParticipantIds,
  ): AsyncGenerator<StudyExportRow<'device-checks'>> {
    for await (const row of this.checks.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toDeviceCheckRow(row, people);
    }
  }
}
