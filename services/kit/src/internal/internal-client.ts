import {
  ERROR_CODES,
  ErrorEnvelope,
  SERVICE_TOKEN_HEADER,
  STATUS,
  type ErrorCode,
  type InternalRouteDef,
  type ServiceName,
} from '@uis/proto';
import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { AppError, unavailable } from '../errors';
import { currentRequestId } from '../http/request-context';
import { REQUEST_ID_HEADER } from '../http/request-logger';

export interface InternalClientOptions {
  serviceToken: string;
  /** Base URL of each service this one calls. */
  urlOf: (service: ServiceName) => string;
  timeoutMs?: number;
}

const KNOWN_CODES = new Set<string>(Object.values(ERROR_CODES));
const isCallersMistake = (status: number) =>
  status >= 400 && status < 500 && status !== 401 && status !== 403;

/**
 * Calls another service's internal endpoint, typed and validated by proto on both ends. The request
 * id of the request being served goes along, so the called service's log lines carry it too.
 *
 * What the called service answers keeps its meaning: its 4xx refusal is thrown as the same AppError
 * (a 404 stays a 404 for the caller to pass on or act on). No answer, a 5xx, an answer that is not
 * the contract's, or a 401/403 (internal routes check only the service token, so that is our own
 * misconfiguration, not the user's doing) is a 503, since the caller can only say "try again".
 */
export class InternalClient {
  constructor(private readonly options: InternalClientOptions) {}

  async call<R extends InternalRouteDef>(
    route: R,
    input: z.input<R['request']>,
  ): Promise<z.output<R['answer']>> {
    const base = this.options.urlOf(route.service);
    const url = new URL(route.path, base);
    const headers: Record<string, string> = {
      [SERVICE_TOKEN_HEADER]: this.options.serviceToken,
      'content-type': 'application/json',
    };
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    const timeout = this.options.timeoutMs ?? 10_000;
    let body: string | undefined;
    if (route.method === 'GET') {
      for (const [key, value] of Object.entries(
        input as Record<string, string | number | boolean | undefined>,
      )) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
    } else {
      body = JSON.stringify(input);
    }

    // undici's request over its global keep-alive pool: the hot internal routes (every chat message,
    // join and access check of realtime) spent a third of realtime's time in fetch's web streams,
    // AbortSignal and URL handling; this is the same client without them.
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: route.method,
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (error) {
      throw unavailable(`${route.service} did not answer ${route.path}: ${(error as Error).message}`);
    }
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const answerBody: unknown = await response.body.json().catch(() => null);
    const failure = ErrorEnvelope.safeParse(answerBody);
    if (failure.success && isCallersMistake(response.statusCode)) {
      const { message, code, issues } = failure.data.res;
      const known = code !== undefined && KNOWN_CODES.has(code);
      throw new AppError(
        response.statusCode,
        known ? (code as ErrorCode) : ERROR_CODES.VALIDATION,
        message,
        issues,
      );
    }
    if (failure.success || !ok) {
      const reason = failure.success ? failure.data.res.message : `HTTP ${response.statusCode}`;
      throw unavailable(`${route.service} refused ${route.path}: ${reason}`);
    }
    const envelope = answerBody as { status?: string; res?: unknown };
    if (envelope?.status !== STATUS.SUCCESS)
      throw unavailable(`${route.service} answered ${route.path} oddly`);
    const answer = route.answer.safeParse(envelope.res);
    if (!answer.success) throw unavailable(`${route.service} answered ${route.path} off the contract`);
    return answer.data as z.output<R['answer']>;
  }
}
