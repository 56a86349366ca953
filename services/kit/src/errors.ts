import { HttpStatus } from '@nestjs/common';
import { ERROR_CODES, SPEC_TEXTS, type ErrorCode, type FieldIssue } from '@uis/proto';
import type { z } from 'zod';

/** An error the caller caused or may act on: it becomes a 4xx (or 503) with this message. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly httpStatus: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, issues?: FieldIssue[]) =>
  new AppError(HttpStatus.BAD_REQUEST, ERROR_CODES.VALIDATION, message, issues);
export const unauthenticated = (
  message = 'Sign in first: the access token is missing, expired or invalid.',
) => new AppError(HttpStatus.UNAUTHORIZED, ERROR_CODES.UNAUTHENTICATED, message);
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(HttpStatus.FORBIDDEN, ERROR_CODES.FORBIDDEN, message);
export const notFound = (message: string) =>
  new AppError(HttpStatus.NOT_FOUND, ERROR_CODES.NOT_FOUND, message);
export const conflict = (message: string) => new AppError(HttpStatus.CONFLICT, ERROR_CODES.CONFLICT, message);
export const tooManyRequests = (message: string) =>
  new AppError(HttpStatus.TOO_MANY_REQUESTS, ERROR_CODES.RATE_LIMITED, message);
export const unsupportedMediaType = (message: string) =>
  new AppError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ERROR_CODES.UNSUPPORTED_MEDIA, message);
export const unavailable = (message: string) =>
  new AppError(HttpStatus.SERVICE_UNAVAILABLE, ERROR_CODES.UNAVAILABLE, message);

/**
 * One message that says what is wrong: the spec's own texts verbatim, other messages
 * prefixed with the field they are about.
 */
export function describeIssues(error: z.ZodError): { message: string; issues: FieldIssue[] } {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = issues[0] ?? { path: '', message: 'Invalid input' };
  const message =
    SPEC_TEXTS.has(first.message) || !first.path ? first.message : `${first.path}: ${first.message}`;
  return { message, issues };
}

export const validationError = (error: z.ZodError) => {
  const { message, issues } = describeIssues(error);
  return badRequest(message, issues);
};
