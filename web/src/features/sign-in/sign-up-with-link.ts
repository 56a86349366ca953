import type { UserType } from '@uis/proto';
import { ApiError, call } from '../../api/client';
import type { SignupInvite } from './signup-invite';

export interface SignupDetails {
  name: string;
  type: UserType;
}

// The link's token is single use: calls for one token share one request while it runs, so React's
// StrictMode (effects run twice in development) cannot spend it twice and see its own 401.
const inFlight = new Map<string, Promise<void>>();

/**
 * Creates the account of the invite's (proven) e-mail with its token, signed in by the cookies its
 * answer sets; rejects with the ApiError.
 */
export function signUpWithLink(invite: SignupInvite, { name, type }: SignupDetails): Promise<void> {
  let signingUp = inFlight.get(invite.token);
  if (!signingUp) {
    signingUp = call('setNewUser', { email: invite.email, name: name.trim(), type, token: invite.token })
      .then(() => undefined)
      .finally(() => inFlight.delete(invite.token));
    inFlight.set(invite.token, signingUp);
  }
  return signingUp;
}

/**
 * The server refused the link itself (401: invalid, expired or already used), as opposed to the
 * sign-up (403 type not allowed, 409 account exists) or a fault: only a new link helps then.
 */
export const linkRefused = (error: unknown): boolean => error instanceof ApiError && error.httpStatus === 401;
