import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/icon';
import { PATHS } from '../../../routes';
import { SIGN_IN_TEXTS } from '../../../i18n/en/sign-in';
import { SIGN_UP_TEXTS } from '../../../i18n/en/sign-up';

export interface SignupLinkSentProps {
  email: string;
  /** How many links this sign-up mailed: from the second on, the message says another one went. */
  sent: number;
  resending: boolean;
  /** Why the server refused to send again (too many requests), when it said something for the user. */
  refusal: string | null;
  onResend: () => void;
  onChangeAddress: () => void;
}

/**
 * After Sign up without a magic link: the confirming link went out, and opening it in this browser
 * finishes the sign-up with what was filled in. The message is a live region, so sending again is
 * announced; focus moves to the heading (described by the message), as the form it replaces is gone.
 */
export function SignupLinkSent({ email, sent, resending, refusal, ...props }: SignupLinkSentProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="signup-sent" aria-labelledby="signup-sent-heading">
      <Icon name="mark_email_unread" size={36} className="signup-sent-icon" />
      <h2
        id="signup-sent-heading"
        className="signup-sent-heading"
        ref={heading}
        tabIndex={-1}
        aria-describedby="signup-sent-message"
      >
        {SIGN_UP_TEXTS.checkEmail}
      </h2>
      <div id="signup-sent-message" className="auth-status success" role="status">
        {/* Keyed by count: a new node is announced even when the words repeat. */}
        <span key={sent}>
          {sent > 1 ? SIGN_UP_TEXTS.sentAnotherLink : SIGN_UP_TEXTS.sentLink}
          <strong className="signup-sent-email">{email}</strong>
          {SIGN_UP_TEXTS.sentLinkEnd}
        </span>
      </div>
      <p className="signup-sent-hint">{SIGN_UP_TEXTS.sentHint}</p>
      {refusal && (
        <p className="auth-status warning" role="alert">
          <Icon name="error_outline" size={20} />
          <span>{refusal}</span>
        </p>
      )}
      <div className="signup-sent-actions">
        <button
          type="button"
          className="button secondary"
          onClick={props.onResend}
          disabled={resending}
          aria-busy={resending}
        >
          <Icon name="refresh" size={20} />
          {SIGN_UP_TEXTS.sendAgain}
        </button>
        <button type="button" className="signup-type-change" onClick={props.onChangeAddress}>
          {SIGN_UP_TEXTS.differentEmail}
        </button>
      </div>
      <p className="auth-note">
        {SIGN_UP_TEXTS.haveAccount} <Link to={PATHS.login}>{SIGN_IN_TEXTS.signIn}</Link>
      </p>
    </section>
  );
}
