/**
 * A magic link followed by an e-mail without an account ends on the sign-up screen carrying the
 * link's e-mail and token (in the router's history state, not the address bar), so /setNewUser
 * can present the token as proof of the address.
 */
export interface SignupInvite {
  email: string;
  token: string;
}

interface SignupState {
  signupInvite: SignupInvite;
}

export const signupState = (invite: SignupInvite): SignupState => ({ signupInvite: invite });

/** The invite in a location's state, if it holds a well-formed one (history state is untyped). */
export function signupInviteOf(state: unknown): SignupInvite | null {
  if (typeof state !== 'object' || state === null || !('signupInvite' in state)) return null;
  const invite = state.signupInvite;
  if (typeof invite !== 'object' || invite === null) return null;
  const { email, token } = invite as Record<string, unknown>;
  return typeof email === 'string' && email && typeof token === 'string' && token ? { email, token } : null;
}
