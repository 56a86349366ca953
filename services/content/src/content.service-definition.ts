import { defineService } from '@uis/kit';
import { contentEnv } from './content.config';
import { ContentModule } from './content.module';

/** Actions, prompts and the session video in the object store. */
export const contentService = defineService({
  name: 'content',
  env: contentEnv,
  imports: (config) => [ContentModule.forRoot(config)],
});
