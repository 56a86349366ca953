import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import { LOGGER, SessionAccessClient, type AuthUser, type Logger } from '@uis/kit';
import { sessionExportFileName, type DataExportTable } from '@uis/proto';
import { csvStream } from './csv-stream';
import { ExportSources, columnNames } from './export-sources';

/**
 * `/exportRecords`: one table of a session as a CSV download, for the session's owner: exactly that
 * table's file of the session's study export (ExportSources), named after the session's title.
 * Records' own rows stream from Postgres a page at a time, so a long session costs the same memory as
 * a short one.
 */
@Injectable()
export class RecordsExportService {
  constructor(
    private readonly access: SessionAccessClient,
    private readonly sources: ExportSources,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async exportFor(user: AuthUser, sessionId: string, table: DataExportTable): Promise<StreamableFile> {
    // Everything that can refuse (access, studies, content) runs before the first byte, so it is still a JSON error.
    await this.access.requireOwner(user, sessionId);
    const prepared = await this.sources.prepare(
      user,
      [sessionId],
      [table],
      (problem, err) => this.logger.error({ err, ...problem, userId: user.id }, 'export left out rows'),
      { withSettings: true },
    );
    const title = prepared.settingsOf(sessionId)?.title ?? '';
    return new StreamableFile(
      csvStream(columnNames(prepared.columnsOf(table)), prepared.rowsOf(table, sessionId)),
      {
        type: 'text/csv; charset=utf-8',
        disposition: `attachment; filename="${sessionExportFileName(title, table)}"`,
      },
    ).setErrorLogger((err) => this.logger.error({ err, sessionId, table }, 'export failed while streaming'));
  }
}
