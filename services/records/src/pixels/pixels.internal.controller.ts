import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { PixelsService } from './pixels.service';

/** Realtime's click appends (service token only; realtime has checked the author). */
@Controller()
export class PixelsInternalController {
  constructor(private readonly pixels: PixelsService) {}

  @InternalEndpoint(internalRoutes.recordsAppendPixel)
  async appendPixel(
    @Input() input: ParsedInternalRequestOf<'recordsAppendPixel'>,
  ): Promise<InternalAnswerOf<'recordsAppendPixel'>> {
    return { pixel: await this.pixels.append(input) };
  }
}
