import { Controller, type StreamableFile } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type ParsedRequestOf } from '@uis/proto';
import { StudyExportService } from './study-export.service';

/** The study export's ZIP download. The route `produces` a file, so the kit leaves it out of the envelope. */
@Controller()
export class StudyExportController {
  constructor(private readonly exports: StudyExportService) {}

  @Endpoint(routes.exportStudy)
  exportStudy(
    @CurrentUser() user: AuthUser,
    @Input() target: ParsedRequestOf<'exportStudy'>,
  ): Promise<StreamableFile> {
    return this.exports.exportFor(user, target);
  }
}
