import { databaseEnv, serviceEnv } from '@uis/kit';
import { z } from 'zod';

/** Records' environment (every variable is in the README's configuration table). */
export const recordsEnv = serviceEnv.merge(databaseEnv).extend({
  /** Rows read from Postgres per query while an export streams; bounds the memory one export holds. */
  EXPORT_PAGE_ROWS: z.coerce.number().int().min(1).max(100_000).default(1000),
});
export type RecordsConfig = z.output<typeof recordsEnv>;

export const RECORDS_CONFIG = Symbol('RECORDS_CONFIG');
