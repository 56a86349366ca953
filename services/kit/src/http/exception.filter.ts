import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ERROR_CODES, STATUS, type ErrorCode, type ErrorEnvelope } from '@uis/proto';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { AppError } from '../errors';
import { isDatabaseUnavailable } from '../database/pg-errors';
import { redactUrl, type Logger } from '../logger';

export const DATABASE_UNAVAILABLE_TEXT =
  'The database is unavailable right now. Please try again in a moment.';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: ERROR_CODES.VALIDATION,
  401: ERROR_CODES.UNAUTHENTICATED,
  403: ERROR_CODES.FORBIDDEN,
  404: ERROR_CODES.NOT_FOUND,
  409: ERROR_CODES.CONFLICT,
  413: ERROR_CODES.PAYLOAD_TOO_LARGE,
  415: ERROR_CODES.UNSUPPORTED_MEDIA,
  429: ERROR_CODES.RATE_LIMITED,
};

/** Errors from body parsing (bad JSON, body too large) carry an HTTP status and a safe message. */
interface HttpishError {
  status: number;
  expose?: boolean;
  message: string;
  type?: string;
}
const isHttpish = (error: unknown): error is HttpishError =>
  typeof error === 'object' && error !== null && typeof (error as HttpishError).status === 'number';

export const NOT_JSON_TEXT = 'The request body is not valid JSON.';

const PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': NOT_JSON_TEXT,
  'entity.too.large': 'The request body is too large.',
  'encoding.unsupported': 'The request body has an unsupported encoding.',
};

const messageOfHttpException = (error: HttpException): string => {
  const body = error.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : error.message;
};

/**
 * The one place an error becomes an answer: the caller's mistakes are 4xx with a message that says
 * what is wrong; anything else is a 500 whose error id is in the log, and no stack leaves the server.
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { httpStatus, body } = this.answerFor(error, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(httpStatus).json(body);
  }

  private answerFor(error: unknown, req: Request): { httpStatus: number; body: ErrorEnvelope } {
    const fail = (httpStatus: number, res: ErrorEnvelope['res']) => ({
      httpStatus,
      body: { status: STATUS.ERROR, res },
    });

    if (error instanceof AppError) {
      return fail(error.httpStatus, { message: error.message, code: error.code, issues: error.issues });
    }
    if (error instanceof HttpException && error.getStatus() < 500) {
      const status = error.getStatus();
      return fail(status, { message: messageOfHttpException(error), code: CODE_BY_STATUS[status] });
    }
    if (isHttpish(error) && error.status >= 400 && error.status < 500) {
      const message =
        (error.type && PARSER_MESSAGES[error.type]) ?? (error.expose ? error.message : 'Bad request.');
      return fail(error.status, { message, code: CODE_BY_STATUS[error.status] ?? ERROR_CODES.VALIDATION });
    }

    if (isDatabaseUnavailable(error)) {
      this.logger.warn(
        { err: error, method: req.method, url: redactUrl(req.originalUrl ?? req.url) },
        'database unavailable',
      );
      return fail(HttpStatus.SERVICE_UNAVAILABLE, {
        message: DATABASE_UNAVAILABLE_TEXT,
        code: ERROR_CODES.UNAVAILABLE,
      });
    }

    const errorId = randomUUID();
    this.logger.error(
      { err: error, errorId, method: req.method, url: redactUrl(req.originalUrl ?? req.url) },
      'unexpected error',
    );
    return fail(HttpStatus.INTERNAL_SERVER_ERROR, {
      message: `Something went wrong on our side. Quote error id ${errorId} when you report it.`,
      code: ERROR_CODES.INTERNAL,
      errorId,
    });
  }
}
