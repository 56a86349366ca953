import { databaseEnv, serviceEnv } from '@uis/kit';
import { z } from 'zod';

/** Studies' environment: the shared variables plus its database (README lists each one). */
export const studiesEnv = serviceEnv.merge(databaseEnv).extend({
  /**
   * A new session's scope: `everyone` (the spec's default: anyone signed in may open it by its link)
   * or `invited` (an empty list: nobody until the researcher names people or shares a join link).
   */
  DEFAULT_SESSION_SCOPE: z.enum(['everyone', 'invited']).default('everyone'),
});
export type StudiesConfig = z.output<typeof studiesEnv>;

/** The validated config, for providers that read it. */
export const STUDIES_CONFIG = Symbol('STUDIES_CONFIG');
