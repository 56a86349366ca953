import { Controller, Get, Inject } from '@nestjs/common';
import { unavailable } from '../errors';
import { SERVICE_NAME } from '../keys';
import { Readiness } from './readiness';

/** Liveness (/health: the process answers) and readiness (/ready: its dependencies answer too). */
@Controller()
export class HealthController {
  private readonly startedAt = Date.now();

  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    private readonly readiness: Readiness,
  ) {}

  @Get('health')
  health() {
    return { service: this.service, uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000) };
  }

  @Get('ready')
  async ready() {
    const failures = await this.readiness.failures();
    if (failures.length > 0) throw unavailable(`Not ready: ${failures.join('; ')}`);
    return { service: this.service, ready: true };
  }
}
