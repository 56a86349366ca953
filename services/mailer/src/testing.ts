/** Test helpers for other packages (`@uis/mailer/testing`); needs the mailer's devDependencies. */
export { startSmtpSink, recipientsOf, type SmtpSink } from '../test/smtp-sink';
