import { SCREEN_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { homePathOf, useAuth } from '../../../signed-in/auth-context';
import { returnPathState, safeReturnPath } from '../../../signed-in/return-path';
import { notify } from '../../../components/ui/toast';
import { PATHS } from '../../../routes';
import { signInExpected, spendExpectedSignIn } from '../expected-sign-in';
import { clearPendingSignup } from '../pending-signup';
import { forgetReturnPath, rememberedReturnPath } from '../remembered-return-path';
import { redeemMagicLink } from '../redeem-magic-link';
import { signupState } from '../signup-invite';
import './auth-callback.css';
import { AUTH_CALLBACK_TEXTS, continueAsText, signInAsText } from '../../../i18n/en/auth-callback';

/**
 * The magic link's landing (spec section 2): trades `email` and `token` for a sign-in and sends the
 * user home by type, or to the page they signed in for (the link's `next`, or the one remembered
 * before a provider's sign-in); an e-mail without an account goes on to sign up, carrying the link as
 * proof and that page (where a sign-up this tab started for that e-mail completes by itself). A link
 * this browser did not ask for waits for "Continue as …" first (login CSRF: expected-sign-in.ts).
 */
export function AuthCallback() {
  const [params] = useSearchParams();
  const email = params.get('email');
  const token = params.get('token');
  // A provider's sign-in passes the name it knows, for a sign-up's form.
  const name = params.get('name');
  // Read once, on arrival (forgetting it below must not change it and run the effect again); only
  // read here, so rendering stays pure: it is forgotten once the link went through.
  const [next] = useState(() => safeReturnPath(params.get('next')) ?? rememberedReturnPath());
  // A link without both parameters fails at once, as before: there is nothing to confirm.
  const [confirmed, setConfirmed] = useState(() => !email || !token || signInExpected(email));
  const navigate = useNavigate();
  const auth = useAuth();
  // Read through a ref: signing in changes `auth`, and the effect must not run again for that
  // (a second redemption of the spent link would fail and undo the sign-in's navigation).
  const authRef = useRef(auth);
  authRef.current = auth;
  // Wait for the stored tokens to be checked, so that check cannot overwrite the new sign-in.
  const checking = auth.state.status === 'checking';

  useEffect(() => {
    if (checking || !confirmed) return;
    if (email) spendExpectedSignIn(email);
    // Only the effect run still mounted acts (StrictMode runs effects twice; the call itself is shared).
    let active = true;
    const fail = (text: string, detail?: string) => {
      notify.error(text, detail);
      // Trying again from the login screen still leads to the page they came for.
      void navigate(PATHS.login, { replace: true, state: returnPathState(next) });
    };
    void redeemMagicLink(email, token).then(async (outcome) => {
      if (!active) return;
      if (outcome.kind === 'failed') return fail(outcome.text, outcome.detail);
      // The page is opened now, or travels on in the sign-up screen's history state: the copy kept
      // for a provider's sign-in is spent.
      forgetReturnPath();
      if (outcome.kind === 'signupRequired')
        return void navigate(PATHS.signup, {
          replace: true,
          state: signupState(name ? { ...outcome.invite, name } : outcome.invite, next),
        });
      // The e-mail has an account after all: nothing is left to sign up in this browser.
      clearPendingSignup();
      try {
        const user = await authRef.current.signIn();
        if (active) void navigate(next ?? homePathOf(user), { replace: true });
      } catch {
        if (active) fail(UI_TEXTS.anErrorOccurred);
      }
    });
    return () => {
      active = false;
    };
  }, [checking, confirmed, email, token, name, next, navigate]);

  if (!confirmed && email) return <ConfirmLink email={email} onContinue={() => setConfirmed(true)} />;
  return (
    <main className="auth-callback" aria-busy="true">
      <span className="auth-callback-spinner" aria-hidden="true" />
      <p role="status">{SCREEN_TEXTS.verifyingLogin}</p>
    </main>
  );
}

/** A link this browser did not ask for: whose it is, and nothing happens until they go on. */
function ConfirmLink({ email, onContinue }: { email: string; onContinue: () => void }) {
  return (
    <main className="auth-callback auth-callback-confirm">
      <h1>{signInAsText(email)}</h1>
      <p>
        {AUTH_CALLBACK_TEXTS.notAskedFor}
        <strong>{email}</strong>
        {AUTH_CALLBACK_TEXTS.notAskedForEnd}
      </p>
      <button type="button" className="button" onClick={onContinue}>
        {continueAsText(email)}
      </button>
      <Link to={PATHS.login}>{AUTH_CALLBACK_TEXTS.notYou}</Link>
    </main>
  );
}
