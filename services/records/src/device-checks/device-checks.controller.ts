import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { DeviceChecksService } from './device-checks.service';

/** Pre-session checks: a session's member stores theirs; its owner reads them all. */
@Controller()
export class DeviceChecksController {
  constructor(private readonly checks: DeviceChecksService) {}

  @Endpoint(routes.saveDeviceCheck)
  async saveDeviceCheck(
    @CurrentUser() caller: AuthUser,
    @Input() input: ParsedRequestOf<'saveDeviceCheck'>,
  ): Promise<AnswerOf<'saveDeviceCheck'>> {
    return { check: await this.checks.save(caller, input) };
  }

  @Endpoint(routes.getDeviceChecks)
  async getDeviceChecks(
    @CurrentUser() caller: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getDeviceChecks'>,
  ): Promise<AnswerOf<'getDeviceChecks'>> {
    const { rows, next } = await this.checks.listFor(caller, sessionId, after);
    return { checks: rows, next };
  }
}
