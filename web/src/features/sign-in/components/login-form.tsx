import { UI_TEXTS, VALIDATION_TEXTS, processingText } from '@uis/proto/browser';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { ErrorCode } from '@uis/proto';
import { ApiError, call } from '../../../api/client';
import { returnPathOf, returnPathState } from '../../../signed-in/return-path';
import { Icon } from '../../../components/ui/icon';
import { PATHS } from '../../../routes';
import { expectLinkFor } from '../expected-sign-in';
import { toastFailure } from '../failure-toast';
import { useProgress } from '../hooks/use-progress';
import { AuthField } from './auth-field';
import { ProviderButtons } from './provider-buttons';
import { SIGN_IN_TEXTS } from '../../../i18n/en/sign-in';

// proto's ERROR_CODES lives beside zod; the type keeps this copy of the one code honest.
const RATE_LIMITED: ErrorCode = 'RATE_LIMITED';

/**
 * Login (spec section 2): an e-mail and Enter, which mails a magic link; ours, the providers' buttons.
 * The page the person came for (a join link, a guarded page) goes with the link as `next`.
 */
export function LoginForm() {
  const next = returnPathOf(useLocation().state);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  /** Why the server refused to send a link (too many asked for): it stays beside the form, a toast goes. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const { percent, track } = useProgress();
  const busy = percent !== null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const destination = email.trim();
    if (!destination) {
      setError(VALIDATION_TEXTS.loginEmail);
      return;
    }
    setError(null);
    setSent(false);
    setRefusal(null);
    try {
      await track(() => call('magicLogin', next ? { destination, next } : { destination }));
      // Its link then signs in at once in this browser (any other waits for a click: login CSRF).
      expectLinkFor(destination);
      setSent(true);
    } catch (failure) {
      toastFailure(UI_TEXTS.errorSendingMagicLink, failure);
      // A student of a class refused at a busy moment reads when to try again, and it stays there.
      if (failure instanceof ApiError && failure.code === RATE_LIMITED) setRefusal(failure.message);
    }
  };

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)}>
      <AuthField
        id="login-email"
        label={SIGN_IN_TEXTS.email}
        type="email"
        autoComplete="email"
        placeholder={SIGN_IN_TEXTS.emailPlaceholder}
        value={email}
        onChange={setEmail}
        error={error ?? undefined}
      />
      <button className="button" type="submit" disabled={busy} aria-busy={busy}>
        {busy ? processingText(percent) : SIGN_IN_TEXTS.enter}
      </button>
      {refusal && (
        <p className="auth-status warning" role="alert">
          <Icon name="schedule" size={20} />
          <span>{refusal}</span>
        </p>
      )}
      {sent && (
        <p className="auth-status success" role="status">
          <Icon name="mark_email_read" size={20} />
          <span>{UI_TEXTS.magicLinkSent}</span>
        </p>
      )}
      <ProviderButtons returnPath={next} />
      <p className="auth-note">
        {SIGN_IN_TEXTS.newHere}{' '}
        <Link to={PATHS.signup} state={returnPathState(next)}>
          {SIGN_IN_TEXTS.signUp}
        </Link>
      </p>
    </form>
  );
}
