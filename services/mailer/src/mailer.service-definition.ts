import { defineService, serviceEnv } from '@uis/kit';
import { mailEnv } from './mail.config';
import { MailerModule } from './mailer.module';

export const mailerEnv = serviceEnv.extend(mailEnv.shape);

/**
 * The mail worker as a service: with REDIS_URL it consumes QUEUES.mail; without it there is nothing
 * to consume (producers run the in-process queue) and it answers /health and /ready only.
 */
export const mailerService = defineService({
  name: 'mailer',
  env: mailerEnv,
  imports: (config, logger) => [MailerModule.forRoot(config, logger)],
});
