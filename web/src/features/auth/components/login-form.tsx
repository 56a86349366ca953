import { UI_TEXTS, VALIDATION_TEXTS, processingText } from '@uis/proto/browser';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { call } from '../../../api/client';
import { Icon } from '../../../components/ui/icon';
import { PATHS } from '../../../routes';
import { toastFailure } from '../failure-toast';
import { useProgress } from '../hooks/use-progress';
import { AuthField } from './auth-field';

/** Login (spec section 2): an e-mail and Enter, which mails a magic link. */
export function LoginForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
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
    try {
      await track(() => call('magicLogin', { destination }));
      setSent(true);
    } catch (failure) {
      toastFailure(UI_TEXTS.errorSendingMagicLink, failure);
    }
  };

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)}>
      <AuthField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.org"
        value={email}
        onChange={setEmail}
        error={error ?? undefined}
      />
      <button className="button" type="submit" disabled={busy} aria-busy={busy}>
        {busy ? processingText(percent) : 'Enter'}
      </button>
      {sent && (
        <p className="auth-status success" role="status">
          <Icon name="mark_email_read" size={20} />
          <span>{UI_TEXTS.magicLinkSent}</span>
        </p>
      )}
      <p className="auth-note">
        New here? <Link to={PATHS.signup}>Sign up</Link>
      </p>
    </form>
  );
}
