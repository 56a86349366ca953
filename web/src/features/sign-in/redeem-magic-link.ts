import { UI_TEXTS } from '@uis/proto/browser';
import type { ErrorCode } from '@uis/proto';
import { ApiError, call } from '../../api/client';
import { serverExplanation } from './failure-toast';
import type { SignupInvite } from './signup-invite';

// proto's ERROR_CODES lives beside zod; the type keeps this copy of the one code honest.
const SIGNUP_REQUIRED: ErrorCode = 'SIGNUP_REQUIRED';

export type CallbackOutcome =
  | { kind: 'signedIn' }
  | { kind: 'signupRequired'; invite: SignupInvite }
  | { kind: 'failed'; text: string; detail?: string };

function outcomeOfFailure(error: unknown, invite: SignupInvite): CallbackOutcome {
  if (error instanceof ApiError && error.code === SIGNUP_REQUIRED) return { kind: 'signupRequired', invite };
  // A refused link (expired, used, malformed) is an authentication failure; anything else is unexpected.
  const refused = error instanceof ApiError && error.httpStatus < 500;
  return refused
    ? { kind: 'failed', text: UI_TEXTS.authenticationFailed, detail: serverExplanation(error) }
    : { kind: 'failed', text: UI_TEXTS.anErrorOccurred };
}

// A link's token is single use: calls for one link share one request while it runs, so React's
// StrictMode (effects run twice in development) or a quick remount cannot spend the token twice.
const inFlight = new Map<string, Promise<CallbackOutcome>>();

/** Trades the magic link's `email` and `token` query parameters for the token cookies, or says why not. */
export function redeemMagicLink(email: string | null, token: string | null): Promise<CallbackOutcome> {
  if (!email || !token) return Promise.resolve({ kind: 'failed', text: UI_TEXTS.authenticationFailed });
  const key = JSON.stringify([email, token]);
  let outcome = inFlight.get(key);
  if (!outcome) {
    outcome = call('getUserTokens', { email, token })
      .then(
        (): CallbackOutcome => ({ kind: 'signedIn' }),
        (error: unknown) => outcomeOfFailure(error, { email, token }),
      )
      .finally(() => inFlight.delete(key));
    inFlight.set(key, outcome);
  }
  return outcome;
}
