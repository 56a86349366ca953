import { z } from 'zod';

import { STATUS } from './status';

export { ERROR_CODES, STATUS, type ErrorCode, type Status } from './status';

/** One field that failed validation. */
export const FieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

/**
 * The `res` of an ERROR answer. `message` is meant for people; `code` for programs;
 * `errorId` appears only on unexpected (500) errors and is the key to the server log line.
 */
export const ErrorRes = z.object({
  message: z.string(),
  code: z.string().optional(),
  issues: z.array(FieldIssue).optional(),
  errorId: z.string().optional(),
});
export type ErrorRes = z.infer<typeof ErrorRes>;

export const ErrorEnvelope = z.object({ status: z.literal(STATUS.ERROR), res: ErrorRes });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const successEnvelope = <T extends z.ZodType>(res: T) =>
  z.object({ status: z.literal(STATUS.SUCCESS), res });

export interface SuccessEnvelope<T> {
  status: typeof STATUS.SUCCESS;
  res: T;
}
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;
