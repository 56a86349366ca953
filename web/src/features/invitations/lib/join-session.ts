import { ERROR_CODES } from '@uis/proto/browser';
import type { AnswerOf, PanelIds } from '@uis/proto';
import { ApiError, call } from '../../../api/client';
import { JOIN_SESSION_PAGE_TEXTS } from '../../../i18n/en/join-session';

type Joined = AnswerOf<'joinSession'>;

// Calls for one link share one request while it runs, so React's StrictMode (effects run twice in
// development) or a quick remount neither counts twice against the join limit nor sees its own 409.
const inFlight = new Map<string, Promise<Joined>>();

/** Follows a join link: the session to open, or an ApiError with the server's reason. */
export function joinSession(token: string, panelIds: PanelIds): Promise<Joined> {
  const key = JSON.stringify([token, panelIds]);
  let joined = inFlight.get(key);
  if (!joined) {
    joined = call('joinSession', { token, panelIds }).finally(() => inFlight.delete(key));
    inFlight.set(key, joined);
  }
  return joined;
}

/** What the join page says about a failure, and whether trying again can help. */
export interface JoinFailure {
  message: string;
  /** Too many attempts, a fault or a lost connection: the same link may work in a moment. */
  retryable: boolean;
}

/**
 * The server's own sentence for what it refused (an unknown or revoked link 404, a full session 409,
 * a researcher 403, too many attempts 429), ours for a session that has ended; anything else is a
 * fault worth another try.
 */
export function joinFailureOf(error: unknown): JoinFailure {
  if (!(error instanceof ApiError) || error.httpStatus >= 500 || error.httpStatus === 0)
    return { message: JOIN_SESSION_PAGE_TEXTS.unexpected, retryable: true };
  // Closed for good, as far as this link knows: say where to go rather than only "ended".
  if (error.code === ERROR_CODES.SESSION_ENDED)
    return { message: JOIN_SESSION_PAGE_TEXTS.ended, retryable: false };
  return { message: error.message, retryable: error.httpStatus === 429 };
}
