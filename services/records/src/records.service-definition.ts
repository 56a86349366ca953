import { defineService, serviceEnv } from '@uis/kit';

export const recordsEnv = serviceEnv;

/** Chat messages and pixel clicks: review, edits, CSV export. */
export const recordsService = defineService({ name: 'records', env: recordsEnv, imports: () => [] });
