import { defineService } from '@uis/kit';
import { authEnv } from './auth.config';
import { AuthModule } from './auth.module';

/** Users, magic links, access and refresh tokens, the participants directory. */
export const authService = defineService({
  name: 'auth',
  env: authEnv,
  imports: (config) => [AuthModule.forRoot(config)],
});
