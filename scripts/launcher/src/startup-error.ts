/**
 * A failure the person running `npm start` can fix (a port taken, a bad data directory). Its message
 * says what to do, so it is printed alone: a stack trace would only hide it.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
