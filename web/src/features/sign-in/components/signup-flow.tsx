import { JOIN_PATH, PARTICIPANT, UI_TEXTS, type UserType } from '@uis/proto/browser';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { call } from '../../../api/client';
import { homePathOf, useAuth } from '../../../signed-in/auth-context';
import { returnPathOf, returnPathState } from '../../../signed-in/return-path';
import { PATHS } from '../../../routes';
import { serverExplanation, toastFailure } from '../failure-toast';
import { expectLinkFor } from '../expected-sign-in';
import { clearPendingSignup, pendingSignupFor, savePendingSignup } from '../pending-signup';
import { linkRefused, signUpWithLink } from '../sign-up-with-link';
import { signupInviteOf } from '../signup-invite';
import { SignupForm } from './signup-form';
import { SignupLinkSent } from './signup-link-sent';
import { UserTypeStep } from './user-type-step';
import './auth-callback.css';
import './signup-flow.css';
import { SIGN_UP_TEXTS } from '../../../i18n/en/sign-up';

/**
 * - `fill`: Select User Type, then the form;
 * - `sent`: the confirming link went out (no magic link yet);
 * - `finishing`: a magic link of a sign-up started in this browser is creating the account.
 */
type Stage = 'fill' | 'sent' | 'finishing';

/**
 * Sign-up. Every account proves its e-mail with a magic link, so there are two ways through:
 * - opened directly: 'Select User Type', e-mail and name; Sign up mails a link and remembers the
 *   choices in this browser (pending-signup.ts); that link's callback comes back here with the invite
 *   and the sign-up completes by itself;
 * - opened from a magic link of an e-mail without an account (the invite): the e-mail is fixed and
 *   Sign up creates the account, unless the choices are already pending for that e-mail.
 * Either way, a page the person came for (a join link, an invitation's session: the return path in
 * the history state) goes with the mailed link and opens once the account is made.
 */
export function SignupFlow() {
  const location = useLocation();
  const navigate = useNavigate();
  // Set with the refusal of a spent or expired link, in the same render (the history state is
  // cleared too, for a reload, but the router applies that a render later).
  const [linkSpent, setLinkSpent] = useState(false);
  const invite = linkSpent ? null : signupInviteOf(location.state);
  const [returnPath] = useState(() => returnPathOf(location.state));
  const auth = useAuth();
  // Read once, on arrival: a pending sign-up of this invite's e-mail means the choices are made.
  const [pending] = useState(() => (invite ? pendingSignupFor(invite.email) : null));
  const [stage, setStage] = useState<Stage>(pending ? 'finishing' : 'fill');
  // On the way to a join link: a participant, never offered the researcher's sign-up.
  const throughJoinLink = returnPath?.startsWith(`${JOIN_PATH}/`) ?? false;
  const [type, setType] = useState<UserType | null>(throughJoinLink ? PARTICIPANT : (pending?.type ?? null));
  const [email, setEmail] = useState(invite?.email ?? '');
  const [name, setName] = useState(pending?.name ?? invite?.name ?? '');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(0);
  const [changingAddress, setChangingAddress] = useState(false);

  const signedUp = async () => {
    clearPendingSignup();
    const user = await auth.signIn();
    // Participants land on /sessions (spec); a researcher's home is the dashboard.
    void navigate(returnPath ?? homePathOf(user), { replace: true });
  };

  /** 'Error signing up.' (spec section 8) with the server's reason beside the form. */
  const refused = (failure: unknown, text: string = UI_TEXTS.errorSigningUp) => {
    toastFailure(text, failure);
    setRefusal(serverExplanation(failure) ?? null);
    // The link cannot be used (expired, used): forget it, so Sign up mails a fresh one.
    if (invite && linkRefused(failure)) {
      setLinkSpent(true);
      void navigate(PATHS.signup, { replace: true, state: returnPathState(returnPath) });
    }
  };

  // A pending sign-up's link: create the account with the choices made before the link was mailed.
  // After the stored tokens were checked, so that check cannot overwrite the new sign-in.
  const checking = auth.state.status === 'checking';
  const inviteEmail = invite?.email;
  const inviteToken = invite?.token;
  useEffect(() => {
    if (stage !== 'finishing' || checking || !pending || !inviteEmail || !inviteToken) return;
    // Only the effect run still mounted acts (StrictMode runs effects twice; the call is shared).
    let active = true;
    signUpWithLink({ email: inviteEmail, token: inviteToken }, pending)
      .then(async () => {
        if (active) await signedUp();
      })
      .catch((failure: unknown) => {
        if (!active) return;
        refused(failure);
        setStage('fill');
      });
    return () => {
      active = false;
    };
    // signedUp and refused are new every render: the run depends on the stage and the link only.
  }, [stage, checking, pending, inviteEmail, inviteToken]);

  const sendLink = async (again: boolean) => {
    if (!type) return;
    const destination = email.trim();
    setBusy(true);
    setRefusal(null);
    try {
      await call('magicLogin', returnPath ? { destination, next: returnPath } : { destination });
      savePendingSignup({ email: destination, name: name.trim(), type });
      expectLinkFor(destination);
      setEmail(destination);
      setSent((count) => count + 1);
      setStage('sent');
    } catch (failure) {
      // Sign up's failure is the spec's sign-up toast; sending again is sending a magic link.
      refused(failure, again ? UI_TEXTS.errorSendingMagicLink : UI_TEXTS.errorSigningUp);
    } finally {
      setBusy(false);
    }
  };

  const finishWithInvite = async () => {
    if (!invite || !type) return;
    setBusy(true);
    setRefusal(null);
    try {
      await signUpWithLink(invite, { name, type });
      await signedUp();
    } catch (failure) {
      refused(failure);
      setBusy(false);
    }
  };

  const changeAddress = () => {
    clearPendingSignup();
    setRefusal(null);
    setSent(0);
    setChangingAddress(true);
    setStage('fill');
  };

  if (stage === 'finishing') {
    return (
      <div className="signup-finishing" aria-busy="true">
        <span className="auth-callback-spinner" aria-hidden="true" />
        <p role="status">{SIGN_UP_TEXTS.finishing}</p>
      </div>
    );
  }
  if (!type) return <UserTypeStep onSelect={setType} />;
  if (stage === 'sent') {
    return (
      <SignupLinkSent
        email={email}
        sent={sent}
        resending={busy}
        refusal={refusal}
        onResend={() => void sendLink(true)}
        onChangeAddress={changeAddress}
      />
    );
  }
  return (
    <SignupForm
      type={type}
      email={email}
      name={name}
      onEmailChange={setEmail}
      onNameChange={setName}
      emailConfirmed={Boolean(invite)}
      refusal={refusal}
      busy={busy}
      focusEmail={changingAddress}
      onSubmit={() => void (invite ? finishWithInvite() : sendLink(false))}
      onChangeType={() => setType(null)}
    />
  );
}
