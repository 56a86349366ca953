import { SCREEN_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { homePathOf, useAuth } from '../../../auth/auth-context';
import { notify } from '../../../components/ui/toast';
import { PATHS } from '../../../routes';
import { redeemMagicLink } from '../redeem-magic-link';
import { signupState } from '../signup-invite';
import './auth-callback.css';

/**
 * The magic link's landing (spec section 2): trades `email` and `token` for a sign-in and sends the
 * user home by type; an e-mail without an account goes on to sign up, carrying the link as proof.
 */
export function AuthCallback() {
  const [params] = useSearchParams();
  const email = params.get('email');
  const token = params.get('token');
  const navigate = useNavigate();
  const auth = useAuth();
  // Read through a ref: signing in changes `auth`, and the effect must not run again for that
  // (a second redemption of the spent link would fail and undo the sign-in's navigation).
  const authRef = useRef(auth);
  authRef.current = auth;
  // Wait for the stored tokens to be checked, so that check cannot overwrite the new sign-in.
  const checking = auth.state.status === 'checking';

  useEffect(() => {
    if (checking) return;
    // Only the effect run still mounted acts (StrictMode runs effects twice; the call itself is shared).
    let active = true;
    const fail = (text: string, detail?: string) => {
      notify.error(text, detail);
      void navigate(PATHS.login, { replace: true });
    };
    void redeemMagicLink(email, token).then(async (outcome) => {
      if (!active) return;
      if (outcome.kind === 'failed') return fail(outcome.text, outcome.detail);
      if (outcome.kind === 'signupRequired')
        return void navigate(PATHS.signup, { replace: true, state: signupState(outcome.invite) });
      try {
        const user = await authRef.current.signIn(outcome.pair);
        if (active) void navigate(homePathOf(user), { replace: true });
      } catch {
        if (active) fail(UI_TEXTS.anErrorOccurred);
      }
    });
    return () => {
      active = false;
    };
  }, [checking, email, token, navigate]);

  return (
    <main className="auth-callback" aria-busy="true">
      <span className="auth-callback-spinner" aria-hidden="true" />
      <p role="status">{SCREEN_TEXTS.verifyingLogin}</p>
    </main>
  );
}
