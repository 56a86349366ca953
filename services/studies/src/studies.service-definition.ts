import { defineService } from '@uis/kit';
import { studiesEnv } from './studies.config';
import { StudiesModule } from './studies.module';

/** Groups and sessions, scopes, and what a user may do in a session. */
export const studiesService = defineService({
  name: 'studies',
  env: studiesEnv,
  imports: (config) => [StudiesModule.forRoot(config)],
});
