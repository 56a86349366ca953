import { Controller, type StreamableFile } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type ParsedRequestOf } from '@uis/proto';
import { RecordsExportService } from './records-export.service';

/** The CSV download. The route `produces` a file, so the kit leaves the answer out of the envelope. */
@Controller()
export class RecordsExportController {
  constructor(private readonly exports: RecordsExportService) {}

  @Endpoint(routes.exportRecords)
  exportRecords(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId, kind }: ParsedRequestOf<'exportRecords'>,
  ): Promise<StreamableFile> {
    return this.exports.exportFor(user, sessionId, kind);
  }
}
