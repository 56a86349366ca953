import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { ConsentService } from './consent.service';

/** Consent texts and agreements for records' study export (service token only). */
@Controller()
export class ConsentInternalController {
  constructor(private readonly consent: ConsentService) {}

  @InternalEndpoint(internalRoutes.studiesConsentExport)
  consentExport(
    @Input() { sessionIds }: ParsedInternalRequestOf<'studiesConsentExport'>,
  ): Promise<InternalAnswerOf<'studiesConsentExport'>> {
    return this.consent.exportOf(sessionIds);
  }
}
