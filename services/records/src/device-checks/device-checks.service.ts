import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SessionAccessClient, type AuthUser } from '@uis/kit';
import type { DeviceCheck, ParsedRequestOf, StudyExportRow } from '@uis/proto';
import type { Repository } from 'typeorm';
import { authorOf } from '../author';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { recordsInOrder } from '../session-record';
import { DeviceCheckEntity, toDeviceCheck, toDeviceCheckRow } from './device-check.entity';

/** The device_checks table: the one place records reads and writes pre-session checks. */
@Injectable()
export class DeviceChecksService {
  constructor(
    @InjectRepository(DeviceCheckEntity) private readonly checks: Repository<DeviceCheckEntity>,
    private readonly access: SessionAccessClient,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** The owner or a participant in scope stores their check, under their own name. */
  async save(
    user: AuthUser,
    { sessionId, rttMs, ...check }: ParsedRequestOf<'saveDeviceCheck'>,
  ): Promise<DeviceCheck> {
    await this.access.requireMember(user, sessionId);
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

  /** The owner's list, oldest first. */
  async listFor(user: AuthUser, sessionId: string): Promise<DeviceCheck[]> {
    await this.access.requireOwner(user, sessionId);
    const rows = await this.checks.find({ where: { sessionId }, order: { seq: 'ASC' } });
    return rows.map(toDeviceCheck);
  }

  /** device-checks.csv's rows of a session, a page at a time. */
  async *exportRows(sessionId: string): AsyncGenerator<StudyExportRow<'device-checks'>> {
    for await (const row of recordsInOrder(this.checks, sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toDeviceCheckRow(row);
    }
  }
}
