import { defineService, serviceEnv } from '@uis/kit';

export const contentEnv = serviceEnv;

/** Actions, prompts and the session video in the object store. */
export const contentService = defineService({ name: 'content', env: contentEnv, imports: () => [] });
