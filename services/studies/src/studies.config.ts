import { databaseEnv, serviceEnv } from '@uis/kit';
import type { z } from 'zod';

/** Studies' environment: the shared variables plus its database (README lists each one). */
export const studiesEnv = serviceEnv.merge(databaseEnv).extend({});
export type StudiesConfig = z.output<typeof studiesEnv>;

/** The validated config, for providers that read it. */
export const STUDIES_CONFIG = Symbol('STUDIES_CONFIG');
