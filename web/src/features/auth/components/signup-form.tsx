import { RESEARCHER, UI_TEXTS, VALIDATION_TEXTS, type UserType } from '@uis/proto/browser';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { call } from '../../../api/client';
import { Icon } from '../../../components/ui/icon';
import { homePathOf, useAuth } from '../../../auth/auth-context';
import { PATHS } from '../../../routes';
import { serverExplanation, toastFailure } from '../failure-toast';
import type { SignupInvite } from '../signup-invite';
import { AuthField } from './auth-field';
import { USER_TYPE_LABELS } from './user-type-step';

interface FieldErrors {
  email?: string;
  name?: string;
}

/** Spec section 5: each empty field says so next to itself; nothing is sent. */
function signupErrors(email: string, name: string): FieldErrors {
  return {
    ...(email.trim() ? {} : { email: VALIDATION_TEXTS.signupEmail }),
    ...(name.trim() ? {} : { name: VALIDATION_TEXTS.signupName }),
  };
}

interface SignupFormProps {
  type: UserType;
  /** From a magic link: the e-mail is proven, so it is fixed and its token goes with the sign-up. */
  invite: SignupInvite | null;
  onChangeType: () => void;
}

/** Sign up (spec section 2): e-mail and name; on success the user is signed in and sent home. */
export function SignupForm({ type, invite, onChangeType }: SignupFormProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState(invite?.email ?? '');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Researcher accounts need a proven e-mail, which only a magic link gives (see the auth README).
  const needsLinkFirst = type === RESEARCHER && !invite;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = signupErrors(email, name);
    setErrors(found);
    if (found.email || found.name) return;
    setBusy(true);
    setRefusal(null);
    try {
      const pair = await call('setNewUser', {
        email: email.trim(),
        name: name.trim(),
        type,
        ...(invite ? { token: invite.token } : {}),
      });
      const user = await auth.signIn(pair);
      // Participants land on /sessions (spec); a researcher's home is the dashboard.
      void navigate(homePathOf(user), { replace: true });
    } catch (failure) {
      toastFailure(UI_TEXTS.errorSigningUp, failure);
      setRefusal(serverExplanation(failure) ?? null);
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="signup-type">
        <span>
          Signing up as <strong>{USER_TYPE_LABELS[type]}</strong>
        </span>
        <button type="button" className="signup-type-change" onClick={onChangeType}>
          Change
        </button>
      </div>
      {invite && (
        <p className="auth-status success">
          <Icon name="verified" size={20} />
          <span>Your e-mail is confirmed by the sign-in link. Choose a name to finish.</span>
        </p>
      )}
      {needsLinkFirst && !refusal && (
        <p className="auth-status warning">
          <Icon name="info" size={20} />
          <span>
            Researcher accounts need a confirmed e-mail: enter it on the{' '}
            <Link to={PATHS.login}>sign-in page</Link>, follow the link we mail you, and you will come back
            here to finish.
          </span>
        </p>
      )}
      <AuthField
        id="signup-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={errors.email}
        readOnly={Boolean(invite)}
      />
      <AuthField
        id="signup-name"
        label="Name"
        type="text"
        autoComplete="name"
        value={name}
        onChange={setName}
        error={errors.name}
      />
      {refusal && (
        <p className="auth-status warning" role="alert">
          <Icon name="error_outline" size={20} />
          <span>
            {refusal}
            {needsLinkFirst && (
              <>
                {' '}
                <Link to={PATHS.login}>Get a sign-in link</Link>
              </>
            )}
          </span>
        </p>
      )}
      <button className="button" type="submit" disabled={busy} aria-busy={busy}>
        Sign up
      </button>
      <p className="auth-note">
        Already have an account? <Link to={PATHS.login}>Sign in</Link>
      </p>
    </form>
  );
}
