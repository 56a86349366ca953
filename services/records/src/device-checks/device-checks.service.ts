import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { DeviceCheck, ParsedRequestOf, StudyExportRow } from '@uis/proto';
import { MoreThan, type Repository } from 'typeorm';
import { authorOf } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { listPage, recordsInOrder, type ListPage } from '../session-record';
import { RecordWriteLimits } from '../write-limits';
import { DeviceCheckEntity, toDeviceCheck, toDeviceCheckRow } from './device-check.entity';

/** The device_checks table: the one place records reads and writes pre-session checks. */
@Injectable()
export class DeviceChecksService {
  constructor(
    @InjectRepository(DeviceCheckEntity) private readonly checks: Repository<DeviceCheckEntity>,
    private readonly access: SessionAccessClient,
    private readonly limits: RecordWriteLimits,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The owner or a participant in scope stores their check, under their own name, a few per window. */
  async save(
    user: AuthUser,
    { sessionId, rttMs, ...check }: ParsedRequestOf<'saveDeviceCheck'>,
  ): Promise<DeviceCheck> {
    await this.access.requireMember(user, sessionId);
    await this.limits.deviceChecks.consume(user.id, sessionId);
    const author = authorOf(user);
    const row = this.checks.create({
      ...check,
      sessionId,
      rttMs: rttMs ?? null,
      authorUserId: author.userId,
      authorEmail: author.email,
      name: author.name,
    });
    return toDeviceCheck(await this.checks.save(row));
  }

  /** The owner's list, oldest first, a page at a time. */
  async listFor(user: AuthUser, sessionId: string, after?: string): Promise<ListPage<DeviceCheck>> {
    await this.access.requireOwner(user, sessionId);
    const { rows, next } = await listPage(this.checks, sessionId, after, (afterSeq, take) =>
      this.checks.find({ where: { sessionId, seq: MoreThan(afterSeq) }, order: { seq: 'ASC' }, take }),
    );
    return { rows: rows.map(toDeviceCheck), next };
  }

  /** device-checks.csv's rows of a session, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<StudyExportRow<'device-checks'>> {
    for await (const row of recordsInOrder(this.checks, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toDeviceCheckRow(row);
    }
  }
}
