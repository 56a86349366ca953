import type { UserType } from '@uis/proto';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { PATHS } from '../routes';
import { homePathOf, useAuth } from './auth-context';

/** Screens for signed-in users: users with no tokens go to / (spec section 2); `type` limits who. */
export function RequireUser({ type, children }: { type?: UserType; children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'checking') return null;
  if (state.status === 'signedOut') return <Navigate to={PATHS.login} replace />;
  if (type && state.user.type !== type) return <Navigate to={homePathOf(state.user)} replace />;
  return children;
}

/** Login and sign-up: a signed-in user is sent on by type instead (spec section 4). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'signedIn') return <Navigate to={homePathOf(state.user)} replace />;
  return children;
}
