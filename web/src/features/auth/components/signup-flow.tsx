import type { UserType } from '@uis/proto/browser';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { signupInviteOf } from '../signup-invite';
import { SignupForm } from './signup-form';
import { UserTypeStep } from './user-type-step';
import './signup-flow.css';

/** Sign-up: 'Select User Type' first, then the e-mail and name form for that type. */
export function SignupFlow() {
  const invite = signupInviteOf(useLocation().state);
  const [type, setType] = useState<UserType | null>(null);
  return type ? (
    <SignupForm type={type} invite={invite} onChangeType={() => setType(null)} />
  ) : (
    <UserTypeStep onSelect={setType} />
  );
}
