import { AuthCallback } from '../features/sign-in/components/auth-callback';

/** `/authcallback?email=…&token=…`: where the magic link lands. */
export function AuthCallbackPage() {
  return <AuthCallback />;
}
