import { VALIDATION_TEXTS, type UserType } from '@uis/proto/browser';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { returnPathOf, returnPathState } from '../../../signed-in/return-path';
import { Icon } from '../../../components/ui/icon';
import { PATHS } from '../../../routes';
import { AuthField } from './auth-field';
import { SIGN_IN_TEXTS } from '../../../i18n/en/sign-in';
import { SIGN_UP_TEXTS, USER_TYPE_LABELS } from '../../../i18n/en/sign-up';

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

export interface SignupFormProps {
  type: UserType;
  email: string;
  name: string;
  onEmailChange: (email: string) => void;
  onNameChange: (name: string) => void;
  /** Opened from a magic link: the e-mail is proven, so it is fixed and Sign up finishes at once. */
  emailConfirmed: boolean;
  /** Why the server refused the last attempt, when it said something meant for the user. */
  refusal: string | null;
  busy: boolean;
  /** Focus the e-mail field on mount (the person came back to change the address). */
  focusEmail?: boolean;
  /** Called with both fields filled. */
  onSubmit: () => void;
  onChangeType: () => void;
}

/**
 * Sign up (spec section 2): e-mail and name for the chosen type. Without a magic link, Sign up
 * mails one to confirm the address (the flow says so here, before it is pressed); with one, it
 * creates the account.
 */
export function SignupForm(props: SignupFormProps) {
  const { type, email, name, emailConfirmed, refusal, busy } = props;
  const [errors, setErrors] = useState<FieldErrors>({});
  // Signing in instead still leads to the page the person came for.
  const returnPath = returnPathOf(useLocation().state);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = signupErrors(email, name);
    setErrors(found);
    if (!found.email && !found.name) props.onSubmit();
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <div className="signup-type">
        <span>
          {SIGN_UP_TEXTS.signingUpAs}
          <strong>{USER_TYPE_LABELS[type]}</strong>
        </span>
        <button type="button" className="signup-type-change" onClick={props.onChangeType}>
          {SIGN_UP_TEXTS.change}
        </button>
      </div>
      {emailConfirmed ? (
        <p className="auth-status success">
          <Icon name="verified" size={20} />
          <span>{SIGN_UP_TEXTS.emailConfirmed}</span>
        </p>
      ) : (
        <p id="signup-how" className="auth-status info">
          <Icon name="info" size={20} />
          <span>{SIGN_UP_TEXTS.howItWorks}</span>
        </p>
      )}
      <AuthField
        id="signup-email"
        label={SIGN_IN_TEXTS.email}
        type="email"
        autoComplete="email"
        placeholder={emailConfirmed ? undefined : SIGN_IN_TEXTS.emailPlaceholder}
        value={email}
        onChange={props.onEmailChange}
        error={errors.email}
        readOnly={emailConfirmed}
        autoFocus={props.focusEmail}
      />
      <AuthField
        id="signup-name"
        label={SIGN_UP_TEXTS.name}
        type="text"
        autoComplete="name"
        value={name}
        onChange={props.onNameChange}
        error={errors.name}
      />
      {refusal && (
        <p className="auth-status warning" role="alert">
          <Icon name="error_outline" size={20} />
          <span>{refusal}</span>
        </p>
      )}
      <button
        className="button"
        type="submit"
        disabled={busy}
        aria-busy={busy}
        aria-describedby={emailConfirmed ? undefined : 'signup-how'}
      >
        {SIGN_IN_TEXTS.signUp}
      </button>
      <p className="auth-note">
        {SIGN_UP_TEXTS.haveAccount}{' '}
        <Link to={PATHS.login} state={returnPathState(returnPath)}>
          {SIGN_IN_TEXTS.signIn}
        </Link>
      </p>
    </form>
  );
}
