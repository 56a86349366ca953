import { Controller } from '@nestjs/common';
import { Input, InternalEndpoint } from '@uis/kit';
import { internalRoutes, type InternalAnswerOf, type ParsedInternalRequestOf } from '@uis/proto';
import { SessionSettingsRepository } from './session-settings.repository';

/** Records' exports read a session's settings (service token only). */
@Controller()
export class SessionSettingsInternalController {
  constructor(private readonly settings: SessionSettingsRepository) {}

  @InternalEndpoint(internalRoutes.studiesSessionSettings)
  async sessionSettings(
    @Input() { sessionId }: ParsedInternalRequestOf<'studiesSessionSettings'>,
  ): Promise<InternalAnswerOf<'studiesSessionSettings'>> {
    return { session: await this.settings.settingsOf(sessionId) };
  }
}
