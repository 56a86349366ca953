import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { RecordCountsService } from './record-counts.service';

/** The counts a deletion's confirmation shows, for the owner of the session or group. */
@Controller()
export class RecordCountsController {
  constructor(private readonly counts: RecordCountsService) {}

  @Endpoint(routes.getRecordCounts)
  getRecordCounts(
    @CurrentUser() user: AuthUser,
    @Input() target: ParsedRequestOf<'getRecordCounts'>,
  ): Promise<AnswerOf<'getRecordCounts'>> {
    return this.counts.countFor(user, target);
  }
}
