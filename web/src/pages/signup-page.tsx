import { AuthLayout } from '../features/sign-in/components/auth-layout';
import { SignupFlow } from '../features/sign-in/components/signup-flow';

/** `/signup`: choose researcher or participant, then e-mail and name; a mailed link confirms the e-mail. */
export function SignupPage() {
  return (
    <AuthLayout>
      <SignupFlow />
    </AuthLayout>
  );
}
