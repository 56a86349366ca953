import { AuthCallback } from '../features/auth/components/auth-callback';

/** `/authcallback?email=…&token=…`: where the magic link lands. */
export function AuthCallbackPage() {
  return <AuthCallback />;
}
