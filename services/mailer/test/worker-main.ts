/**
 * One mail worker in a process of its own, for tests that kill it for real (SIGKILL runs no shutdown
 * hook and drops its sockets mid-transaction). It reads the mailer's variables from the environment
 * and MailWorkerOptions as JSON from argv[2] (short locks, so the next worker takes over in about a
 * second). It prints one JSON log line per event on stdout and "worker ready" once it consumes.
 */
import { createLogger, loadConfig } from '@uis/kit';
import { mailEnv } from '../src/mail.config';
import { startMailWorker, type MailWorkerOptions } from '../src/mail.worker';

const config = loadConfig(mailEnv);
const options = JSON.parse(process.argv[2] ?? '{}') as MailWorkerOptions;
const logger = createLogger({ service: 'mailer', level: process.env.LOG_LEVEL ?? 'info' });
const worker = startMailWorker(config, logger, options);

worker.worker.once('ready', () => logger.info('worker ready'));
process.once('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
