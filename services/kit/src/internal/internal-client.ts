import {
  ErrorEnvelope,
  SERVICE_TOKEN_HEADER,
  STATUS,
  type InternalRouteDef,
  type ServiceName,
} from '@uis/proto';
import type { z } from 'zod';
import { unavailable } from '../errors';

export interface InternalClientOptions {
  serviceToken: string;
  /** Base URL of each service this one calls. */
  urlOf: (service: ServiceName) => string;
  timeoutMs?: number;
}

/** Calls another service's internal endpoint, typed and validated by proto on both ends. */
export class InternalClient {
  constructor(private readonly options: InternalClientOptions) {}

  async call<R extends InternalRouteDef>(
    route: R,
    input: z.input<R['request']>,
  ): Promise<z.output<R['answer']>> {
    const base = this.options.urlOf(route.service);
    const url = new URL(route.path, base);
    const init: RequestInit = {
      method: route.method,
      headers: { [SERVICE_TOKEN_HEADER]: this.options.serviceToken, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    };
    if (route.method === 'GET') {
      for (const [key, value] of Object.entries(
        input as Record<string, string | number | boolean | undefined>,
      )) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
    } else {
      init.body = JSON.stringify(input);
    }

    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      throw unavailable(`${route.service} did not answer ${route.path}: ${(error as Error).message}`);
    }
    const body: unknown = await response.json().catch(() => null);
    const failure = ErrorEnvelope.safeParse(body);
    if (failure.success || !response.ok) {
      const reason = failure.success ? failure.data.res.message : `HTTP ${response.status}`;
      throw unavailable(`${route.service} refused ${route.path}: ${reason}`);
    }
    const envelope = body as { status?: string; res?: unknown };
    if (envelope?.status !== STATUS.SUCCESS)
      throw unavailable(`${route.service} answered ${route.path} oddly`);
    return route.answer.parse(envelope.res) as z.output<R['answer']>;
  }
}
