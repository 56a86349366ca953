import { AuthLayout } from '../features/sign-in/components/auth-layout';
import { LoginForm } from '../features/sign-in/components/login-form';

/** `/` and every unknown path. */
export function LoginPage() {
  return (
    <AuthLayout>
      <LoginForm />
    </AuthLayout>
  );
}
