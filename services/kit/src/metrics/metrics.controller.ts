import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Metrics } from './metrics';

/** Prometheus's scrape endpoint: plain text, not the {status, res} envelope. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  async scrape(@Res() res: Response): Promise<void> {
    res.set('Content-Type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
