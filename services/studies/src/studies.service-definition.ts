import { defineService, serviceEnv } from '@uis/kit';

export const studiesEnv = serviceEnv;

/** Groups and sessions, scopes, and what a user may do in a session. */
export const studiesService = defineService({ name: 'studies', env: studiesEnv, imports: () => [] });
