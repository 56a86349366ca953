import { AuthLayout } from '../features/auth/components/auth-layout';
import { LoginForm } from '../features/auth/components/login-form';

/** `/` and every unknown path. */
export function LoginPage() {
  return (
    <AuthLayout>
      <LoginForm />
    </AuthLayout>
  );
}
