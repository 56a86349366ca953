import { Inject, Injectable } from '@nestjs/common';
import type { StudyExportRow } from '@uis/proto';
import type { ParticipantIds } from '../export/participant-ids';
import { RECORDS_CONFIG, type RecordsConfig } from '../records.config';
import { AuditLogRepository, toAuditExportRow } from './audit-log.repository';

/** The audit log as the study export reads it (entries are written by the changes: AuditLogRepository.insert). */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogRepository,
    @Inject(RECORDS_CONFIG) private readonly config: RecordsConfig,
  ) {}

  /** A session's entries in the order made, a page at a time; before and after as JSON text. */
  async *exportRows(sessionId: string, people: ParticipantIds): AsyncGenerator<StudyExportRow<'audit'>> {
    for await (const row of this.entries.inOrder(sessionId, this.config.EXPORT_PAGE_ROWS)) {
      yield toAuditExportRow(row, people);
    }
  }
}
