/**
 * A magic link followed by an e-mail without an account ends on the sign-up screen carrying the
 * link's e-mail and token (in the router's history state, not the address bar), so /setNewUser
 * can present the token as proof of the address.
 */
export interface SignupInvite {
  email: string;
  token: string;
  /** The name a sign-in provider knows the person by: the form's first guess. */
  name?: string;
}

interface SignupState {
  signupInvite: SignupInvite;
  /** The page to open once the account is made (see auth/return-path.ts). */
  returnPath?: string;
}

export const signupState = (invite: SignupInvite, returnPath?: string | null): SignupState =>
  returnPath ? { signupInvite: invite, returnPath } : { signupInvite: invite };

/** The invite in a location's state, if it holds a well-formed one (history state is untyped). */
export function signupInviteOf(state: unknown): SignupInvite | null {
  if (typeof state !== 'object' || state === null || !('signupInvite' in state)) return null;
  const invite = state.signupInvite;
  if (typeof invite !== 'object' || invite === null) return null;
  const { email, token, name } = invite as Record<string, unknown>;
  if (typeof email !== 'string' || !email || typeof token !== 'string' || !token) return null;
  return typeof name === 'string' && name ? { email, token, name } : { email, token };
}
