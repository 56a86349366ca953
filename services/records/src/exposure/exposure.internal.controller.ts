import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ExposureService } from './exposure.service';

/** Realtime's exposure appends (service token only; realtime has checked each participant). */
@Controller()
export class ExposureInternalController {
  constructor(private readonly exposure: ExposureService) {}

  @InternalEndpoint(internalRoutes.recordsAppendExposure)
  async appendExposure(
    @Input() { items }: ParsedInternalRequestOf<'recordsAppendExposure'>,
  ): Promise<InternalAnswerOf<'recordsAppendExposure'>> {
    return { storedIds: await this.exposure.append(items) };
  }
}
