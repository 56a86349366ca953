import type { ServiceName } from '@uis/proto';
import type { Request, RequestHandler, Response } from 'express';
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type GaugeConfiguration,
} from 'prom-client';

/** Latency buckets (seconds) from a cache hit to a slow export. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A service's Prometheus metrics, served at its own /metrics (inside the deployment; the gateway does
 * not route it). Each service has a registry of its own, labelled with its name, so `npm start`,
 * which composes every service in one process, keeps them apart.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(service: ServiceName) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route (the route pattern, not the URL) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
  }

  /** Times every request; the label is its route's pattern, so the series stay few whatever the URLs. */
  httpMiddleware(): RequestHandler {
    return (req: Request, res: Response, next) => {
      const end = this.httpDuration.startTimer();
      res.once('finish', () => {
        const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A gauge; with `collect`, read when Prometheus scrapes (sockets, rooms, queue depth). */
  gauge<L extends string>(
    name: string,
    help: string,
    options: { labelNames?: readonly L[]; collect?: GaugeConfiguration<L>['collect'] } = {},
  ): Gauge<L> {
    return new Gauge({
      name,
      help,
      labelNames: options.labelNames ?? [],
      collect: options.collect,
      registers: [this.registry],
    });
  }
}
