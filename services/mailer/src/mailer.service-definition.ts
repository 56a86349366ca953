import { defineService, serviceEnv } from '@uis/kit';
import { checkMailEnv, mailEnv } from './mail.config';
import { MailerModule } from './mailer.module';

/** The mailer's environment: the kit's, the mail variables, and the rules between them (checked at boot). */
export const mailerEnv = serviceEnv.extend(mailEnv.shape).superRefine(checkMailEnv);

/**
 * The mail worker as a service: with REDIS_URL it consumes QUEUES.mail; without it there is nothing
 * to consume (producers run the in-process queue) and it answers /health and /ready only.
 */
export const mailerService = defineService({
  name: 'mailer',
  env: mailerEnv,
  imports: (config, logger) => [MailerModule.forRoot(config, logger)],
});
