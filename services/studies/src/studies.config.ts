import { envVars, serviceEnv } from '@uis/kit';
import type { z } from 'zod';

/** Studies' environment: the shared variables plus its database (README lists each one). */
export const studiesEnv = serviceEnv.extend({
  DATABASE_URL: envVars.databaseUrl(),
});
export type StudiesConfig = z.output<typeof studiesEnv>;
