import { databaseEnv, liveWriteLimitVar, serviceEnv } from '@uis/kit';
import { z } from 'zod';

/** Records' environment (every variable is in docs/configuration.md). */
export const recordsEnv = serviceEnv.merge(databaseEnv).extend({
  /** Rows read from Postgres per query while an export streams; bounds the memory one export holds. */
  EXPORT_PAGE_ROWS: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Messages and clicks one user may store in one session per 10 s over REST, as realtime counts live ones. */
  LIVE_WRITE_LIMIT: liveWriteLimitVar(),
  /**
   * The key of the exports' participant_ids (export/participant-ids.ts); unset, one derived from
   * JWT_SECRET. Ids stay the same across exports as long as it does.
   */
  // Empty (compose's default) is unset: the key is then derived.
  PARTICIPANT_ID_SECRET: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
});
export type RecordsConfig = z.output<typeof recordsEnv>;

export const RECORDS_CONFIG = Symbol('RECORDS_CONFIG');
